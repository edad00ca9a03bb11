package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.threadbench.loadtest.plan.Plan;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestCheckTest {

    private static String refusal(String method, String url, Map<String, String> headers) {
        return RequestCheck.refusal(new Plan.Step("s1", method, URI.create(url), headers));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            GET  | http://10.0.0.5:8080/  | Accept | text/html
            head | http://10.0.0.5/       | X-Trace-Id | a b\tc
            GET  | http://10.0.0.5:8080/  | Host   | 10.0.0.5:8080
            GET  | http://Servers.Test/   | host   | servers.test
            GET  | http://10.0.0.5/       | Host   | 10.0.0.5:80
            GET  | http://[::1]:8080/     | Host   | [::1]:8080
            """)
    void sent(String method, String url, String name, String value) {
        assertNull(refusal(method, url, Map.of(name, value)));
    }

    @Test
    void aHeaderNameMayHoldEveryTokenCharacter() {
        assertNull(refusal("GET", "http://10.0.0.5/", Map.of("!#$%&'*+-.^_`|~09azAZ", "v")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            GET    | https://10.0.0.5/      | request s1: https://10.0.0.5/ is not an http:// URL with a host
            GET    | ftp://10.0.0.5/        | request s1: ftp://10.0.0.5/ is not an http:// URL with a host
            POST   | http://10.0.0.5/       | request s1: method POST (an agent sends GET or HEAD only)
            DELETE | http://10.0.0.5/       | request s1: method DELETE (an agent sends GET or HEAD only)
            GET    | http://10.0.0.5:0/     | request s1: http://10.0.0.5:0/ has no TCP port (1-65535)
            """)
    void refusedRequests(String method, String url, String refusal) {
        assertEquals(refusal, refusal(method, url, Map.of()));
    }

    @Test
    void hostOtherThanTheUrlsIsRefused() {
        assertEquals(
                "request s1: header Host 'intranet.example' is not 10.0.0.5:8080, the URL's own",
                refusal("GET", "http://10.0.0.5:8080/", Map.of("Host", "intranet.example")));
        assertEquals(
                "request s1: header Host '10.0.0.5:8081' is not 10.0.0.5:8080, the URL's own",
                refusal("GET", "http://10.0.0.5:8080/", Map.of("HOST", "10.0.0.5:8081")));
        assertEquals(
                "request s1: header Host '10.0.0.5' is not 10.0.0.5:8080, the URL's own",
                refusal("GET", "http://10.0.0.5:8080/", Map.of("host", "10.0.0.5")));
        assertEquals(
                "request s1: header Host '\\u001b[2Jx' is not 10.0.0.5:8080, the URL's own",
                refusal("GET", "http://10.0.0.5:8080/", Map.of("Host", "\u001b[2Jx")),
                "a terminal escape is shown, not sent to the agent's console");
    }

    @Test
    void crLfOrNulInAHeaderAndNamesThatAreNoTokensAreRefused() {
        String url = "http://10.0.0.5:8080/";
        String smuggled = "a\r\n\r\nGET /admin HTTP/1.1\r\nHost: other";
        assertEquals(
                "request s1: header X-A has a CR, LF or NUL in its value",
                refusal("GET", url, Map.of("X-A", smuggled)));
        assertEquals(
                "request s1: header X-A has a CR, LF or NUL in its value", refusal("GET", url, Map.of("X-A", "a\n")));
        assertEquals(
                "request s1: header X-A has a CR, LF or NUL in its value", refusal("GET", url, Map.of("X-A", "a\0")));
        assertEquals(
                "request s1: header Host has a CR, LF or NUL in its value",
                refusal("GET", url, Map.of("Host", "10.0.0.5:8080\r\nX-B: b")));
        String notToken = "' is not a token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~)";
        assertEquals("request s1: header name 'X A" + notToken, refusal("GET", url, Map.of("X A", "v")));
        assertEquals("request s1: header name 'X:A" + notToken, refusal("GET", url, Map.of("X:A", "v")));
        assertEquals("request s1: header name 'X\\u000dA" + notToken, refusal("GET", url, Map.of("X\rA", "v")));
        assertEquals("request s1: header name '" + notToken, refusal("GET", url, Map.of("", "v")));
    }
}
