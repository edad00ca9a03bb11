package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AllowedTargetsTest {

    private static String refusal(String allowed, String url) {
        return AllowedTargets.parse(allowed).refusal(List.of(new Plan.Step("GET /", "GET", URI.create(url), Map.of())));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            198.18.0.0/24                  | http://198.18.0.7:8080/
            198.18.0.0/15                  | http://198.19.3.4:80/
            10.1.2.3:8080                  | http://10.1.2.3:8080/
            10.1.2.3                       | http://10.1.2.3:9999/
            10.0.0.0/8:8081                | http://10.200.0.1:8081/
            127.0.0.1:80                   | http://127.0.0.1/
            localhost:8080                 | http://localhost:8080/
            '[::1]:8080'                   | http://[::1]:8080/
            '::1'                          | http://[::1]:9/
            '10.9.9.9, 198.18.0.0/24'      | http://198.18.0.200:8080/
            """)
    void allowed(String allowed, String url) {
        assertNull(refusal(allowed, url));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            198.18.0.0/24      | http://198.18.1.7:8080/  | target http://198.18.1.7:8080 (198.18.1.7:8080) is not in --allow-targets 198.18.0.0/24
            10.1.2.3:8080      | http://10.1.2.3:8081/    | target http://10.1.2.3:8081 (10.1.2.3:8081) is not in --allow-targets 10.1.2.3:8080
            10.1.2.3:8080      | http://10.1.2.4:8080/    | target http://10.1.2.4:8080 (10.1.2.4:8080) is not in --allow-targets 10.1.2.3:8080
            127.0.0.1:80       | https://127.0.0.1/       | target https://127.0.0.1:443 (127.0.0.1:443) is not in --allow-targets 127.0.0.1:80
            0.0.0.0/32         | http://127.0.0.1:80/     | target http://127.0.0.1:80 (127.0.0.1:80) is not in --allow-targets 0.0.0.0/32
            """)
    void refused(String allowed, String url, String refusal) {
        assertEquals(refusal, refusal(allowed, url));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            NULL              | --allow-targets: name the servers this agent may load (CIDR or HOST, each with an optional :PORT, e.g. 198.18.0.0/24,10.1.2.3:8080): an agent loads nothing else, and nothing by default
            ' , '             | --allow-targets: name at least one CIDR or HOST[:PORT]
            10.0.0.0/33       | --allow-targets: not ADDR[/BITS][:PORT] or HOST[:PORT]: 10.0.0.0/33
            10.0.0.1:0        | --allow-targets: not ADDR[/BITS][:PORT] or HOST[:PORT]: 10.0.0.1:0
            10.0.0.1:http     | --allow-targets: not ADDR[/BITS][:PORT] or HOST[:PORT]: 10.0.0.1:http
            example/8         | --allow-targets: not ADDR[/BITS][:PORT] or HOST[:PORT]: example/8
            no-such-host.invalid | --allow-targets: cannot resolve no-such-host.invalid (in no-such-host.invalid)
            """)
    void badEntriesAreOneLine(String allowed, String message) {
        assertEquals(
                message,
                assertThrows(UsageException.class, () -> AllowedTargets.parse(allowed))
                        .getMessage());
    }
}
