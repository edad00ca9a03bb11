package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestRulesTest {

    /** The verdict for GET with these header fields, given as "name: value". */
    private static FixedResponse verdict(String method, String target, String version, String... fields) {
        RequestRules.Head head = RequestRules.head(method, target, version);
        for (String field : fields) {
            int colon = field.indexOf(':');
            head.header(field.substring(0, colon), field.substring(colon + 1).strip());
        }
        return head.verdict();
    }

    private static FixedResponse get(String target, String... fields) {
        return verdict("GET", target, "HTTP/1.1", fields);
    }

    @Test
    void anOrdinaryRequestIsRouted() {
        assertNull(get("/", "Host: localhost:8080", "Accept: */*"));
        assertNull(verdict("HEAD", "/?a=1&b=%20", "HTTP/1.1", "Host: localhost"));
        assertNull(verdict("GET", "/", "HTTP/1.0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/2.0", "HTTP/0.9", "HTTP/1.10", "http/1.1", "HTTP/1."})
    void versionsOtherThanHttp1AreRefused(String version) {
        assertEquals(FixedResponse.BAD_REQUEST, verdict("GET", "/", version, "Host: a"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/a b",
                "/\u0000",
                "/\u0001",
                "/caf\u00e9",
                "/#frag",
                "/a\\b",
                "/<",
                "/?q=\"",
                "/{}",
                "/|",
                "/^",
                "/`",
                "/%zz",
                "/%4",
                "/?q=%g0",
                "foo",
                "localhost:80",
                "*",
                "ftp://localhost/",
                "http://user@localhost/"
            })
    void malformedTargetsAreRefused(String target) {
        assertEquals(FixedResponse.BAD_REQUEST, get(target, "Host: localhost"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/a!$&'()*+,=:@~-._b",
                "/?a[]=1",
                "/?q=%C3%A9",
                "http://localhost/",
                "HTTP://localhost",
                "https://localhost?x"
            })
    void targetsAsUndertowTakesThemAreRouted(String target) {
        assertNull(get(target, "Host: localhost"));
    }

    @Test
    void theAsteriskIsForOptionsAndTheAuthorityFormForConnect() {
        assertNull(verdict("OPTIONS", "*", "HTTP/1.1", "Host: a"));
        assertEquals(
                FixedResponse.NOT_IMPLEMENTED, verdict("CONNECT", "localhost:443", "HTTP/1.1", "Host: localhost:443"));
        assertEquals(FixedResponse.BAD_REQUEST, verdict("GET", "localhost:443", "HTTP/1.1", "Host: localhost:443"));
    }

    @Test
    void http11NeedsExactlyOneValidHost() {
        assertEquals(FixedResponse.BAD_REQUEST, get("/"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Host: a"));
        assertEquals(FixedResponse.BAD_REQUEST, verdict("GET", "/", "HTTP/1.0", "Host: a", "Host: b"));
        assertNull(get("/", "Host:"), "an empty Host is allowed");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a b",
                "a/b",
                "u@host",
                "host:",
                "host:0",
                "host:65536",
                "host:123456",
                "host:+80",
                "host:8x",
                "a%41",
                "[::1",
                "[zz]",
                "[1:2:3:4:5:6:7:8:9]",
                "[1::2::3]",
                "caf\u00e9"
            })
    void invalidHostsAreRefused(String host) {
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: " + host), host);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "localhost",
                "a_b",
                "a,b",
                "127.0.0.1:80",
                "example.com:65535",
                "host:00080",
                "[::1]",
                "[::1]:8080",
                "[2001:db8::8a2e:370:7334]",
                "[::ffff:192.0.2.1]",
                "[1:2:3:4:5:6:7:8]"
            })
    void validHostsAreRouted(String host) {
        assertNull(get("/", "Host: " + host), host);
    }

    @Test
    void anAbsoluteTargetMustContainTheHost() {
        assertNull(get("http://localhost:8080/", "Host: localhost"));
        assertEquals(FixedResponse.BAD_REQUEST, get("http://other.example/", "Host: localhost"));
        assertEquals(FixedResponse.BAD_REQUEST, get("HTTP://LOCALHOST/", "Host: localhost"));
    }

    @Test
    void headerNamesMustBeTokens() {
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", ": empty name"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "X A: v"));
        assertNull(get("/", "Host: a", "X-A!#$%&'*+.^_`|~: v"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "+1", "0x1", "1, 1", "1 0", "", "9999999999999999999"})
    void malformedContentLengthsAreRefused(String value) {
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Content-Length: " + value));
    }

    @Test
    void framingThatCouldBeReadTwoWaysIsRefused() {
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Content-Length: 1", "Content-Length: 1"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Content-Length: 5", "Transfer-Encoding: chunked"));
        assertEquals(
                FixedResponse.BAD_REQUEST,
                get("/", "Host: a", "Transfer-Encoding: gzip", "Transfer-Encoding: chunked"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Transfer-Encoding: chunked, gzip"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Transfer-Encoding: gzip"));
        assertEquals(FixedResponse.BAD_REQUEST, get("/", "Host: a", "Transfer-Encoding: chunked, chunked"));
        assertEquals(FixedResponse.BAD_REQUEST, verdict("GET", "/", "HTTP/1.0", "Transfer-Encoding: chunked"));
    }

    @Test
    void contentIsRefusedUnread() {
        assertEquals(FixedResponse.CONTENT_TOO_LARGE, get("/", "Host: a", "Content-Length: 5"));
        assertEquals(
                FixedResponse.CONTENT_TOO_LARGE,
                verdict("POST", "/", "HTTP/1.1", "Host: a", "Content-Length: 1000000000"));
        assertEquals(FixedResponse.CONTENT_TOO_LARGE, get("/", "Host: a", "Transfer-Encoding: Chunked"));
        assertNull(get("/", "Host: a", "Content-Length: 0"));
        assertNull(get("/", "Host: a", "Content-Length: 00"));
    }

    @Test
    void anUnknownTransferCodingIsNotImplemented() {
        assertEquals(FixedResponse.NOT_IMPLEMENTED, get("/", "Host: a", "Transfer-Encoding: gzip, chunked"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"get", "Get", "FOO", "PRI", "CONNECT"})
    void methodsAreCaseSensitiveAndUnknownOnesNotImplemented(String method) {
        assertEquals(FixedResponse.NOT_IMPLEMENTED, verdict(method, "/", "HTTP/1.1", "Host: a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"})
    void knownMethodsAreRoutedEvenWhereNotAllowed(String method) {
        assertNull(verdict(method, "/", "HTTP/1.1", "Host: a"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "//",
                "/./",
                "/.",
                "/..",
                "/a/../",
                "/a/%2e%2E/",
                "/%2e/",
                "/./health",
                "/health/",
                "/;a",
                "/health;x",
                "http://localhost//"
            })
    void pathsThatOnlyNormaliseToAResourceAreNotFound(String target) {
        assertEquals(FixedResponse.NOT_FOUND, get(target, "Host: localhost"));
    }

    @Test
    void sizesAreCheckedAfterSyntax() {
        String longTarget = "/?q=" + "a".repeat(HttpLimits.MAX_URI_LENGTH);
        assertEquals(FixedResponse.URI_TOO_LONG, get(longTarget, "Host: a"));
        assertEquals(
                FixedResponse.BAD_REQUEST, get(longTarget + "<", "Host: a"), "the parser would refuse the byte first");
        assertEquals(FixedResponse.BAD_REQUEST, get(longTarget), "Undertow's Host check comes before the size check");
        String[] many = new String[HttpLimits.MAX_HEADERS + 1];
        many[0] = "Host: a";
        for (int i = 1; i < many.length; i++) {
            many[i] = "X-" + i + ": v";
        }
        assertEquals(FixedResponse.HEADERS_TOO_LARGE, get("/", many));
        assertEquals(FixedResponse.HEADERS_TOO_LARGE, verdict("FOO", "/", "HTTP/1.1", many), "431 before 501");
    }

    @Test
    void canonicalPathsAndTheirSegments() {
        assertTrue(RequestRules.isCanonicalPath("/"));
        assertTrue(RequestRules.isCanonicalPath("/stats"));
        assertTrue(RequestRules.isCanonicalPath("/a.b/..c/%2e%2e%2e"));
        assertFalse(RequestRules.isCanonicalPath("/a//b"));
    }
}
