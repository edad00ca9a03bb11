package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.RequestLimits;
import dev.threadbench.process.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of malformed, hostile and merely unusual requests, each sent raw over a socket to both
 * servers. Each case names the one answer both must give: a fitting refusal, or what HTTP allows
 * (200, or 404/405 where the request is well-formed). Neither may hang, answer another 5xx, show an
 * exception, or log a stack trace, and both still serve {@code GET /} afterwards.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileInputTest {

    /** Well below the head read timeout: a complete request is answered at once or the server hangs. */
    private static final Duration READ_TIMEOUT = HttpLimits.HEADER_READ_TIMEOUT.dividedBy(2);

    private static final Set<Integer> REFUSALS = Set.of(400, 405, 413, 414, 431, 501, 505);
    private static final Pattern LEAK = Pattern.compile("(?i)exception|\\tat |\\bat (java|javax|io|org|dev|sun)\\.");
    private static final String HOST = "Host: localhost\r\n";

    private static final Map<String, RawHttp> SERVERS = new LinkedHashMap<>();
    private static final List<ServerProcess> STARTED = new ArrayList<>();
    private static final Map<String, Map<String, RawHttp.Outcome>> OUTCOMES = new ConcurrentHashMap<>();

    record Case(String name, byte[] request, int expected, boolean head) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case of(String name, String request, int expected) {
        return new Case(name, request.getBytes(StandardCharsets.ISO_8859_1), expected, request.startsWith("HEAD "));
    }

    private static Case of(String name, byte[] request, int expected) {
        return new Case(name, request, expected, false);
    }

    private static String get(String target, String... fields) {
        return "GET " + target + " HTTP/1.1\r\n" + HOST + String.join("", fields) + "\r\n";
    }

    private static String fields(int count) {
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < count; i++) {
            fields.append("X-").append(i).append(": v\r\n");
        }
        return fields.toString();
    }

    /** A head of exactly {@code bytes} bytes, all but a few in one header value. */
    private static String headOfBytes(int bytes) {
        String start = "GET / HTTP/1.1\r\n" + HOST + "X-Big: ";
        return start + "a".repeat(bytes - start.length() - 4) + "\r\n\r\n";
    }

    static Stream<Case> corpus() {
        byte[] tlsClientHello = new byte[200];
        tlsClientHello[0] = 0x16;
        tlsClientHello[1] = 0x03;
        tlsClientHello[2] = 0x01;
        byte[] everyByte = new byte[256];
        for (int i = 0; i < 256; i++) {
            everyByte[i] = (byte) i;
        }
        int uriLimit = HttpLimits.MAX_URI_LENGTH;
        return Stream.of(
                of("line: plain GET /", get("/"), 200),
                of("line: HEAD /", "HEAD / HTTP/1.1\r\n" + HOST + "\r\n", 200),
                of("line: garbage", "GARBAGE\r\n\r\n", 400),
                of("line: no version (HTTP/0.9 style)", "GET /\r\n\r\n", 400),
                of("line: extra token after the version", "GET / HTTP/1.1 x\r\n" + HOST + "\r\n", 400),
                of("line: two spaces before the target", "GET  / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                of("line: tabs as separators", "GET\t/\tHTTP/1.1\r\n" + HOST + "\r\n", 400),
                of("line: leading space", " GET / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                of("line: empty line before the request line", "\r\n" + get("/"), 400),
                of("line: only empty lines", "\r\n\r\n\r\n\r\n", 400),
                of("line: lowercase method", "get / HTTP/1.1\r\n" + HOST + "\r\n", 501),
                of("line: unknown method", "FOO / HTTP/1.1\r\n" + HOST + "\r\n", 501),
                of("line: method with a non-token byte", "G(T / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                of("line: NUL in the method", "G\0T / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                of(
                        "line: method longer than Undertow's parser takes",
                        "X".repeat(RequestLimits.PARSER_METHOD_LENGTH + 1) + " / HTTP/1.1\r\n" + HOST + "\r\n",
                        400),
                of("version: HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", 200),
                of("version: HTTP/1.2 is served as 1.1", "GET / HTTP/1.2\r\n" + HOST + "\r\n", 200),
                of("version: HTTP/3.0 is served as 1.1, as Undertow does", "GET / HTTP/3.0\r\n" + HOST + "\r\n", 200),
                of("version: HTTP/2.0 in a request line", "GET / HTTP/2.0\r\n" + HOST + "\r\n", 400),
                of("version: HTTP/0.9", "GET / HTTP/0.9\r\n" + HOST + "\r\n", 400),
                of("version: FOO/1.1", "GET / FOO/1.1\r\n" + HOST + "\r\n", 400),
                of("version: lowercase http/1.1", "GET / http/1.1\r\n" + HOST + "\r\n", 400),
                of("version: HTTP/1.10", "GET / HTTP/1.10\r\n" + HOST + "\r\n", 400),
                of("protocol: HTTP/2 connection preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400),
                of(
                        "protocol: h2c upgrade is ignored",
                        get(
                                "/",
                                "Connection: Upgrade, HTTP2-Settings\r\n",
                                "Upgrade: h2c\r\n",
                                "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"),
                        200),
                of(
                        "protocol: WebSocket upgrade is ignored",
                        get(
                                "/",
                                "Connection: Upgrade\r\n",
                                "Upgrade: websocket\r\n",
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
                                "Sec-WebSocket-Version: 13\r\n"),
                        200),
                of("protocol: TLS ClientHello on the plain port", tlsClientHello, 400),
                of("protocol: every byte value 0-255", everyByte, 400),
                of("bytes: control character in the target", get("/\u0001"), 400),
                of("bytes: NUL in the target", get("/\0"), 400),
                of(
                        "bytes: raw UTF-8 in the target",
                        new String(
                                        "GET /\u00e9 HTTP/1.1\r\n".getBytes(StandardCharsets.UTF_8),
                                        StandardCharsets.ISO_8859_1)
                                + HOST + "\r\n",
                        400),
                of("bytes: NUL in a header value", get("/", "X-A: a\0b\r\n"), 400),
                of("bytes: control character in a header value", get("/", "X-A: a\u0001b\r\n"), 400),
                of("bytes: DEL in a header value", get("/", "X-A: a\u007fb\r\n"), 400),
                of("bytes: bare CR in a header value", get("/", "X-A: a\rb\r\n"), 400),
                of("bytes: control character in a header name", get("/", "X\u0001A: a\r\n"), 400),
                of("bytes: obs-text (Latin-1) in a header value", get("/", "X-A: caf\u00e9\r\n"), 200),
                of("header: line without a colon", get("/", "NoColon\r\n"), 400),
                of("header: name with a space", get("/", "X A: a\r\n"), 400),
                of("header: space before the colon", get("/", "X-A : a\r\n"), 400),
                of("header: empty name", get("/", ": a\r\n"), 400),
                of("header: obs-fold continuation line", get("/", "X-A: a\r\n b\r\n"), 200),
                of("header: obs-fold as the first header line", "GET / HTTP/1.1\r\n X-A: a\r\n" + HOST + "\r\n", 400),
                of("header: LF-only line endings", "GET / HTTP/1.1\nHost: localhost\n\n", 400),
                of("size: target just over the URI limit", get("/?q=" + "a".repeat(uriLimit)), 414),
                of("size: 30 KB target", get("/?q=" + "a".repeat(30_000)), 414),
                of("size: 100 KB target, beyond the parser ceiling", get("/?q=" + "a".repeat(100_000)), 400),
                of("size: 9 KB header", get("/", "X-A: " + "a".repeat(9_000) + "\r\n"), 431),
                of("size: 30 KB header", get("/", "X-A: " + "a".repeat(30_000) + "\r\n"), 431),
                of(
                        "size: 100 KB header, beyond the parser ceiling",
                        get("/", "X-A: " + "a".repeat(100_000) + "\r\n"),
                        400),
                of("size: one header field too many", get("/", fields(HttpLimits.MAX_HEADERS)), 431),
                of("size: 1,000 header fields, beyond the parser ceiling", get("/", fields(1_000)), 400),
                of(
                        "size: 30 KB target and 30 KB of headers",
                        get("/?q=" + "a".repeat(30_000), "X-A: " + "a".repeat(30_000) + "\r\n"),
                        400),
                of("size: head exactly at the parser ceiling", headOfBytes(RequestLimits.PARSER_HEAD_BYTES), 431),
                of(
                        "size: head one byte over the parser ceiling",
                        headOfBytes(RequestLimits.PARSER_HEAD_BYTES + 1),
                        400),
                of("host: none on HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", 400),
                of("host: two equal Host fields", get("/", HOST), 400),
                of("host: two different Host fields", get("/", "Host: other\r\n"), 400),
                of("host: two Host fields on HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                of("host: empty (allowed)", "GET / HTTP/1.1\r\nHost:\r\n\r\n", 200),
                of("host: with a space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
                of("host: with a slash", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
                of("host: with userinfo", "GET / HTTP/1.1\r\nHost: user@localhost\r\n\r\n", 400),
                of("host: empty port", "GET / HTTP/1.1\r\nHost: localhost:\r\n\r\n", 400),
                of("host: port 0", "GET / HTTP/1.1\r\nHost: localhost:0\r\n\r\n", 400),
                of("host: port beyond 65535", "GET / HTTP/1.1\r\nHost: localhost:99999\r\n\r\n", 400),
                of("host: percent-encoded name", "GET / HTTP/1.1\r\nHost: a%41\r\n\r\n", 400),
                of("host: IPv6 literal", "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", 200),
                of("host: malformed IPv6 literal", "GET / HTTP/1.1\r\nHost: [zz]\r\n\r\n", 400),
                of(
                        "framing: Content-Length with Transfer-Encoding",
                        "POST / HTTP/1.1\r\n" + HOST
                                + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        400),
                of(
                        "framing: Content-Length with Transfer-Encoding on GET",
                        get("/", "Content-Length: 5\r\n", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n",
                        400),
                of(
                        "framing: two different Content-Lengths",
                        get("/", "Content-Length: 1\r\n", "Content-Length: 2\r\n") + "ab",
                        400),
                of(
                        "framing: two equal Content-Lengths",
                        get("/", "Content-Length: 1\r\n", "Content-Length: 1\r\n") + "a",
                        400),
                of("framing: Content-Length list", get("/", "Content-Length: 1, 1\r\n") + "a", 400),
                of("framing: negative Content-Length", get("/", "Content-Length: -1\r\n"), 400),
                of("framing: Content-Length with a plus sign", get("/", "Content-Length: +1\r\n") + "a", 400),
                of("framing: hexadecimal Content-Length", get("/", "Content-Length: 0x1\r\n") + "a", 400),
                of(
                        "framing: Content-Length beyond 64 bits",
                        get("/", "Content-Length: 99999999999999999999999\r\n"),
                        400),
                of("framing: Content-Length 0 on GET", get("/", "Content-Length: 0\r\n"), 200),
                of("content: GET with a 5-byte body", get("/", "Content-Length: 5\r\n") + "hello", 413),
                of("content: POST with a body", "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\nhello", 413),
                of("content: Content-Length 1 GB, nothing sent", get("/", "Content-Length: 1000000000\r\n"), 413),
                of(
                        "content: Expect 100-continue",
                        "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nExpect: 100-continue\r\n\r\n",
                        413),
                of("content: chunked GET", get("/", "Transfer-Encoding: chunked\r\n") + "5\r\nhello\r\n0\r\n\r\n", 413),
                of(
                        "content: chunked with a bad chunk size",
                        get("/", "Transfer-Encoding: chunked\r\n") + "zz\r\nhello\r\n0\r\n\r\n",
                        413),
                of(
                        "content: chunked with a huge chunk size",
                        get("/", "Transfer-Encoding: chunked\r\n") + "fffffffffffffffffff\r\nhello\r\n",
                        413),
                of(
                        "content: chunked without CRLF after the data",
                        get("/", "Transfer-Encoding: chunked\r\n") + "5\r\nhelloXX0\r\n\r\n",
                        413),
                of("coding: gzip only", get("/", "Transfer-Encoding: gzip\r\n"), 400),
                of("coding: chunked, gzip", get("/", "Transfer-Encoding: chunked, gzip\r\n"), 400),
                of("coding: gzip, chunked", get("/", "Transfer-Encoding: gzip, chunked\r\n") + "0\r\n\r\n", 501),
                of("coding: xchunked", get("/", "Transfer-Encoding: xchunked\r\n"), 400),
                of("coding: identity", get("/", "Transfer-Encoding: identity\r\n"), 400),
                of(
                        "coding: two Transfer-Encoding fields",
                        get("/", "Transfer-Encoding: gzip\r\n", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n",
                        400),
                of("coding: empty Transfer-Encoding", get("/", "Transfer-Encoding: \r\n"), 400),
                of(
                        "coding: Transfer-Encoding on HTTP/1.0",
                        "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        400),
                of("method: CONNECT", "CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n", 501),
                of("method: CONNECT /", "CONNECT / HTTP/1.1\r\n" + HOST + "\r\n", 501),
                of("method: TRACE", "TRACE / HTTP/1.1\r\n" + HOST + "\r\n", 405),
                of("method: OPTIONS /", "OPTIONS / HTTP/1.1\r\n" + HOST + "\r\n", 405),
                of("method: OPTIONS *", "OPTIONS * HTTP/1.1\r\n" + HOST + "\r\n", 404),
                of("method: POST without content", "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n", 405),
                of("method: PRI on /", "PRI / HTTP/1.1\r\n" + HOST + "\r\n", 501),
                of("target: absolute form", get("http://localhost/"), 200),
                of("target: absolute form, https", get("https://localhost/"), 200),
                of(
                        "target: absolute form with a port",
                        "GET http://localhost:8080/ HTTP/1.1\r\nHost: localhost:8080\r\n\r\n",
                        200),
                of("target: absolute form of /stats", get("http://localhost/stats"), 200),
                of("target: absolute form naming another host than Host", get("http://other.example/"), 400),
                of("target: absolute form with userinfo", get("http://user@localhost/"), 400),
                of("target: absolute form, scheme ftp", get("ftp://localhost/"), 400),
                of("target: authority form on GET", get("localhost:80"), 400),
                of("target: asterisk on GET", get("*"), 400),
                of("target: no leading slash", get("foo"), 400),
                of("target: fragment", get("/#frag"), 400),
                of("target: backslashes", get("/..\\..\\etc\\passwd"), 400),
                of("target: unescaped < \" { } ^ ` and a pipe in the query", get("/?a=<script>\"{|}^`"), 400),
                of("target: bad percent-escape in the path", get("/%zz"), 400),
                of("target: bad percent-escape in the query", get("/?q=%zz"), 400),
                of("target: query with sub-delims and brackets", get("/?a=1&b=%20&c[]=!$'()*+,;:@"), 200),
                of("path: ../ traversal", get("/../../etc/passwd"), 404),
                of("path: percent-encoded ../ traversal", get("/%2e%2e/%2e%2e/etc/passwd"), 404),
                of("path: encoded slashes", get("/..%2f..%2fetc%2fpasswd"), 404),
                of("path: /a/../ (not normalised to /)", get("/a/../"), 404),
                of("path: /a/%2e%2e/", get("/a/%2e%2e/"), 404),
                of("path: /./", get("/./"), 404),
                of("path: //", get("//"), 404),
                of("path: /..", get("/.."), 404),
                of("path: /./health", get("/./health"), 404),
                of("path: path parameters /;jsessionid=x", get("/;jsessionid=x"), 404),
                of("path: /%00", get("/%00"), 404),
                of("misc: unknown Expect", get("/", "Expect: something\r\n"), 200),
                of("misc: Connection: close", get("/", "Connection: close\r\n"), 200),
                of("misc: two pipelined requests", get("/") + get("/health"), 200));
    }

    @BeforeAll
    static void startServers() {
        for (String name : Servers.NAMES) {
            if (Servers.external()) {
                SERVERS.put(name, new RawHttp(Servers.externalUrl(name)));
            } else {
                ServerProcess process = Servers.start(name, "--delay-every", "0");
                STARTED.add(process);
                SERVERS.put(name, new RawHttp(process.baseUrl()));
            }
        }
    }

    @AfterAll
    static void stopServersAndPrintTheTable() {
        STARTED.forEach(ServerProcess::close);
        StringBuilder table = new StringBuilder("| case | expected | undertow | vertx |\n|---|---|---|---|\n");
        corpus().forEach(c -> {
            Map<String, RawHttp.Outcome> outcomes = OUTCOMES.getOrDefault(c.name(), Map.of());
            table.append("| ").append(c.name()).append(" | ").append(c.expected());
            for (String server : Servers.NAMES) {
                table.append(" | ").append(outcomes.containsKey(server) ? outcomes.get(server) : "-");
            }
            table.append(" |\n");
        });
        System.out.println(table);
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void bothServersGiveTheSameFittingAnswer(Case c) {
        Map<String, RawHttp.Outcome> outcomes = new LinkedHashMap<>();
        SERVERS.forEach((name, raw) -> outcomes.put(name, raw.exchange(c.request(), c.head(), READ_TIMEOUT)));
        OUTCOMES.put(c.name(), outcomes);
        boolean refusal = REFUSALS.contains(c.expected()) && c.expected() != 405;
        List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
        outcomes.forEach((server, outcome) -> {
            String where = server + " on '" + c.name() + "': " + outcome;
            checks.add(() -> assertNotEquals(
                    RawHttp.Ending.TIMEOUT, outcome.ending(), where + ": no answer within " + READ_TIMEOUT));
            checks.add(() -> assertFalse(
                    LEAK.matcher(outcome.text()).find(), where + ": the answer shows an exception: " + outcome.text()));
            if (outcome.ending() == RawHttp.Ending.RESPONSE) {
                checks.add(() -> assertEquals(c.expected(), outcome.status(), where));
                checks.add(() -> assertTrue(outcome.status() < 500 || REFUSALS.contains(outcome.status()), where));
                if (refusal) {
                    checks.add(() ->
                            assertTrue(outcome.closedAfterResponse(), where + ": a refusal must close the connection"));
                }
            } else {
                checks.add(
                        () -> assertTrue(refusal, where + ": closed without an answer, but HTTP allows this request"));
            }
        });
        assertAll(c.name(), checks.stream());
    }

    /**
     * Vert.x answers the good request, then refuses the malformed one. Undertow's parser refuses the
     * malformed one as soon as it reads it, and the answer it held back for the good one is lost (its
     * way with pipelined requests): the one difference left, and only for a client that pipelines.
     */
    @Order(1)
    @Test
    void aMalformedRequestPipelinedAfterAGoodOneIsRefusedInTurn() throws Exception {
        byte[] pipelined = (get("/") + "GET  / HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        for (Map.Entry<String, RawHttp> server : SERVERS.entrySet()) {
            try (java.net.Socket socket = server.getValue().connect(READ_TIMEOUT)) {
                socket.getOutputStream().write(pipelined);
                String received = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                int refused = received.indexOf("HTTP/1.1 400 ");
                boolean refusedLast = refused >= 0 && received.indexOf("HTTP/1.1 ", refused + 1) < 0;
                boolean goodOneFirstIfAtAll =
                        !received.contains("HTTP/1.1 200 ") || received.startsWith("HTTP/1.1 200 ");
                assertTrue(refusedLast && goodOneFirstIfAtAll, server.getKey() + " answered: " + received);
            }
        }
    }

    @Order(2)
    @Test
    void bothStillServeThePageAndLoggedNoStackTrace() {
        Map<String, RawHttp.Outcome> after = new LinkedHashMap<>();
        SERVERS.forEach((name, raw) ->
                after.put(name, raw.exchange(get("/").getBytes(StandardCharsets.ISO_8859_1), false, READ_TIMEOUT)));
        assertAll(after.entrySet().stream()
                .map(e -> () -> assertEquals(200, e.getValue().status(), e.getKey() + ": " + e.getValue())));
        for (ServerProcess process : STARTED) {
            String output = process.stdout() + process.stderr();
            assertFalse(output.contains("\tat "), "a stack trace in the log:" + process.output());
            assertTrue(output.lines().count() < 20, "the corpus flooded the log:" + process.output());
        }
    }
}
