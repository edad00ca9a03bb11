package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AllowedTargetsTest {

    private static List<Plan.Step> get(String url) {
        return List.of(new Plan.Step("GET /", "GET", URI.create(url), Map.of()));
    }

    private static String refusal(String allowed, String url) {
        return AllowedTargets.parse(allowed, false).check(get(url)).refusal();
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
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
            2001:db8::/32                  | http://[2001:db8:7::5]:8080/
            '[2001:db8::/48]:8080'         | http://[2001:db8:0:9::5]:8080/
            10.0.0.0/24                    | http://[::ffff:10.0.0.5]:8080/
            '::ffff:10.0.0.0/120'          | http://10.0.0.9/
            '[::ffff:10.0.0.0/120]:8080'   | http://[::ffff:10.0.0.9]:8080/
            """)
    void allowed(String allowed, String url) {
        assertNull(refusal(allowed, url));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            198.18.0.0/24      | http://198.18.1.7:8080/  | target http://198.18.1.7:8080 (198.18.1.7:8080) is not in --allow-targets 198.18.0.0/24
            10.1.2.3:8080      | http://10.1.2.3:8081/    | target http://10.1.2.3:8081 (10.1.2.3:8081) is not in --allow-targets 10.1.2.3:8080
            10.1.2.3:8080      | http://10.1.2.4:8080/    | target http://10.1.2.4:8080 (10.1.2.4:8080) is not in --allow-targets 10.1.2.3:8080
            127.0.0.1:443      | https://127.0.0.1/       | target https://127.0.0.1:80 (127.0.0.1:80) is not in --allow-targets 127.0.0.1:443
            127.0.0.1:80       | http://127.0.0.1:443/    | target http://127.0.0.1:443 (127.0.0.1:443) is not in --allow-targets 127.0.0.1:80
            0.0.0.0/32         | http://127.0.0.1:80/     | target http://127.0.0.1:80 (127.0.0.1:80) is not in --allow-targets 0.0.0.0/32
            2001:db8::/48      | http://[2001:db8:1::5]/  | target http://[2001:db8:1::5]:80 ([2001:db8:1:0:0:0:0:5]:80) is not in --allow-targets 2001:db8::/48
            10.0.0.0/24        | http://[::ffff:10.0.1.5]/ | target http://[::ffff:10.0.1.5]:80 (10.0.1.5:80) is not in --allow-targets 10.0.0.0/24
            '::ffff:10.0.0.0/120' | http://10.0.1.9/     | target http://10.0.1.9:80 (10.0.1.9:80) is not in --allow-targets ::ffff:10.0.0.0/120
            0.0.0.0/32         | http://0.0.0.0:8080/     | target http://0.0.0.0:8080 (0.0.0.0:8080) is the unspecified address, which reaches the agent's own host: never a target
            0.0.0.0/32         | http://[::ffff:0.0.0.0]:8080/ | target http://[::ffff:0.0.0.0]:8080 (0.0.0.0:8080) is the unspecified address, which reaches the agent's own host: never a target
            '::/128'           | http://[::]:8080/        | target http://[::]:8080 ([0:0:0:0:0:0:0:0]:8080) is the unspecified address, which reaches the agent's own host: never a target
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
            '::ffff:10.0.0.0/95' | --allow-targets: not ADDR[/BITS][:PORT] or HOST[:PORT]: ::ffff:10.0.0.0/95
            no-such-host.invalid | --allow-targets: cannot resolve no-such-host.invalid (in no-such-host.invalid)
            0.0.0.0/0         | --allow-targets: 0.0.0.0/0 allows every address; name the servers' networks, or give --allow-any-target if any address is really meant
            '10.0.0.0/8, ::/0' | --allow-targets: ::/0 allows every address; name the servers' networks, or give --allow-any-target if any address is really meant
            '[::/0]:8080'     | --allow-targets: [::/0]:8080 allows every address; name the servers' networks, or give --allow-any-target if any address is really meant
            '::ffff:0.0.0.0/96' | --allow-targets: ::ffff:0.0.0.0/96 allows every address; name the servers' networks, or give --allow-any-target if any address is really meant
            """)
    void badEntriesAreOneLine(String allowed, String message) {
        assertEquals(
                message,
                assertThrows(UsageException.class, () -> AllowedTargets.parse(allowed, false))
                        .getMessage());
    }

    @Test
    void everyAddressWithAllowAnyTargetButTheUnspecifiedOne() {
        AllowedTargets any = AllowedTargets.parse("0.0.0.0/0,::/0", true);
        assertNull(any.check(get("http://203.0.113.9:8080/")).refusal());
        assertNull(any.check(get("http://[2001:db8::1]/")).refusal());
        assertEquals(
                "target http://0.0.0.0:80 (0.0.0.0:80) is the unspecified address, which reaches the agent's own host:"
                        + " never a target",
                any.check(get("http://0.0.0.0/")).refusal());
    }

    @Test
    void aNameIsResolvedOnceEveryAddressCheckedAndTheCheckedOnePinned() {
        AtomicInteger lookups = new AtomicInteger();
        AllowedTargets.Resolver rebinding = host -> {
            if (!host.equals("servers.test")) {
                throw new UnknownHostException(host);
            }
            // a second answer would point elsewhere: the check must not ask again
            return lookups.getAndIncrement() == 0
                    ? new InetAddress[] {address("10.0.0.5"), address("10.0.0.6")}
                    : new InetAddress[] {address("192.0.2.66")};
        };
        AllowedTargets allowed = AllowedTargets.parse("10.0.0.0/24", false, rebinding);
        List<Plan.Step> steps = List.of(
                new Plan.Step("GET /", "GET", URI.create("http://servers.test:8080/"), Map.of()),
                new Plan.Step("GET /stats", "GET", URI.create("http://servers.test:8080/stats"), Map.of()));
        AllowedTargets.Checked checked = allowed.check(steps);
        assertNull(checked.refusal());
        assertEquals(Map.of("servers.test", address("10.0.0.5")), checked.pinned());
        assertEquals(1, lookups.get(), "one lookup for both steps");
    }

    @Test
    void aNameWithOneAddressOutsideTheListIsRefused() {
        AllowedTargets.Resolver twoAddresses = host -> new InetAddress[] {address("10.0.0.5"), address("192.0.2.66")};
        assertEquals(
                "target http://servers.test:8080 (192.0.2.66:8080) is not in --allow-targets 10.0.0.5",
                AllowedTargets.parse("10.0.0.5", false, twoAddresses)
                        .check(get("http://servers.test:8080/"))
                        .refusal());
    }
}
