package dev.threadbench.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.RequestLimits;
import dev.threadbench.vertx.RequestHeadScanner.Step;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestHeadScannerTest {

    private static final String HOST = "Host: localhost\r\n";

    /**
     * Every step other than MORE, with the index of the byte that gave it (a line's LF, or the last byte
     * of a line without one); feeding stops after the scanner is done.
     */
    private static List<String> scan(RequestHeadScanner scanner, String bytes) {
        List<String> steps = new ArrayList<>();
        byte[] raw = bytes.getBytes(StandardCharsets.ISO_8859_1);
        for (int from = 0; from < raw.length; ) {
            int lf = RequestHeadScanner.indexOf(raw, from, raw.length, (byte) '\n');
            int end = lf < 0 ? raw.length : lf + 1;
            Step step = lf < 0 ? scanner.partial(raw, from, end) : scanner.line(raw, from, end);
            if (step != Step.MORE) {
                steps.add(step + "@" + (end - 1));
                if (step == Step.REFUSE || step == Step.CONTENT_FOLLOWS) {
                    break;
                }
            }
            from = end;
        }
        return steps;
    }

    private static List<String> scan(String bytes) {
        return scan(new RequestHeadScanner(), bytes);
    }

    @Test
    void aHeadIsCompleteAtItsEmptyLine() {
        String head = "GET / HTTP/1.1\r\n" + HOST + "\r\n";
        assertEquals(List.of("HEAD_COMPLETE@" + (head.length() - 1)), scan(head));
    }

    @Test
    void pipelinedHeadsAreSeenOneAfterTheOther() {
        String head = "GET / HTTP/1.1\r\n" + HOST + "\r\n";
        assertEquals(
                List.of("HEAD_COMPLETE@" + (head.length() - 1), "HEAD_COMPLETE@" + (2 * head.length() - 1)),
                scan(head + head));
    }

    @Test
    void inHeadFromTheFirstByteUntilTheEmptyLine() {
        RequestHeadScanner scanner = new RequestHeadScanner();
        assertFalse(scanner.inHead());
        scan(scanner, "G");
        assertTrue(scanner.inHead());
        scan(scanner, "GET / HTTP/1.1\r\n" + HOST); // a line is fed whole once its LF has come
        assertTrue(scanner.inHead());
        scan(scanner, "\r\n");
        assertFalse(scanner.inHead());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "GET  / HTTP/1.1\r\n",
                "GET\t/\tHTTP/1.1\r\n",
                " GET / HTTP/1.1\r\n",
                "\r\nGET / HTTP/1.1\r\n",
                "GET / HTTP/1.1 \r\n",
                "GET / HTTP/1.1 x\r\n",
                "GET / \r\n",
                "GET /\r\n",
                "GET / http/1.1\r\n",
                "GET / FOO/1.1\r\n",
                "GET / HTTP/1.10\r\n",
                "GET / HTTP/11\r\n",
                "GET / HTTP/2.0\r\n",
                "PRI * HTTP/2.0\r\n",
                "GET / HTTP/0.9\r\n",
                "GET / HTTP/1.1\n",
                "GET /\u0000 HTTP/1.1\r\n",
                "GET /\u00e9 HTTP/1.1\r\n",
                "\u0016\u0003\u0001\u0000"
            })
    void malformedRequestLinesAreRefused(String line) {
        List<String> steps = scan(line + HOST + "\r\n");
        assertEquals(1, steps.size(), steps.toString());
        assertTrue(steps.get(0).startsWith("REFUSE@"), steps.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\u0016\u0003\u0001\u0000\u0000",
                " GET",
                "GET  /",
                "GET /\u0000",
                "GET / HTTP/1.1 ",
                "GET / HTTP/2.0\r",
                "GET / HTTP/1.1\r\nX-A: a\rb"
            })
    void aLineThatCanNoLongerBeValidIsRefusedBeforeItsLineFeed(String start) {
        List<String> steps = scan(start);
        assertEquals(1, steps.size(), steps.toString());
        assertTrue(steps.get(0).startsWith("REFUSE@"), steps.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "G",
                "GET",
                "GET ",
                "GET /",
                "GET / HT",
                "GET / HTTP/1.1",
                "GET / HTTP/1.1\r",
                "GET / HTTP/1.1\r\nHost: a",
                "GET / HTTP/1.1\r\nHost: a\r"
            })
    void theStartOfAValidHeadWaitsForTheRest(String start) {
        assertEquals(List.of(), scan(start));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.0", "HTTP/1.1", "HTTP/1.2", "HTTP/3.0", "HTTP/2.1", "HTTP/0.8"})
    void versionsUndertowServesArePassedOn(String version) {
        assertEquals(1, scan("GET / " + version + "\r\n" + HOST + "\r\n").size());
        assertTrue(scan("GET / " + version + "\r\n" + HOST + "\r\n").get(0).startsWith("HEAD_COMPLETE"));
    }

    @Test
    void aVersionOtherThan10And11IsNotedForTheRestOfTheConnection() {
        RequestHeadScanner scanner = new RequestHeadScanner();
        scan(scanner, "GET / HTTP/1.1\r\n" + HOST + "\r\nGET / HTTP/1.0\r\n\r\n");
        assertFalse(scanner.sawOtherVersion());
        scan(scanner, "GET / HTTP/1.2\r\n" + HOST + "\r\n");
        assertTrue(scanner.sawOtherVersion());
        scan(scanner, "GET / HTTP/1.1\r\n" + HOST + "\r\n");
        assertTrue(scanner.sawOtherVersion());
    }

    @Test
    void methodsLongerThanUndertowTakesAreRefused() {
        String longest = "X".repeat(RequestLimits.PARSER_METHOD_LENGTH);
        assertTrue(scan(longest + " / HTTP/1.1\r\n" + HOST + "\r\n").get(0).startsWith("HEAD_COMPLETE"));
        assertTrue(scan(longest + "X / HTTP/1.1\r\n" + HOST + "\r\n").get(0).startsWith("REFUSE"));
    }

    /** A bare CR inside a line is left to Netty's decoder: see HeadGuardTest. */
    @Test
    void bareLineFeedsInHeadersAreRefused() {
        assertTrue(scan("GET / HTTP/1.1\r\nX-A: a\n\r\n").get(0).startsWith("REFUSE"));
        assertTrue(scan("GET / HTTP/1.1\r\n" + HOST + "\n").get(0).startsWith("REFUSE"));
    }

    @Test
    void theHeadSizeIsCountedAsUndertowCountsIt() {
        String start = "GET / HTTP/1.1\r\n" + HOST + "X: ";
        String end = "\r\n\r\n";
        String fits = start + "a".repeat(RequestLimits.PARSER_HEAD_BYTES - start.length() - end.length()) + end;
        assertEquals(RequestLimits.PARSER_HEAD_BYTES, fits.length());
        assertTrue(scan(fits).get(0).startsWith("HEAD_COMPLETE"));
        String tooLong = start + "a".repeat(RequestLimits.PARSER_HEAD_BYTES - start.length() - end.length() + 1) + end;
        assertTrue(scan(tooLong).get(0).startsWith("REFUSE"));
    }

    @Test
    void theFieldCountIsCountedAsUndertowCountsIt() {
        StringBuilder head = new StringBuilder("GET / HTTP/1.1\r\n").append(HOST);
        for (int i = 1; i < RequestLimits.PARSER_HEADER_COUNT; i++) {
            head.append("X-").append(i).append(": v\r\n");
        }
        assertTrue(scan(head + "\r\n").get(0).startsWith("HEAD_COMPLETE"), "as many fields as the parser takes");
        assertTrue(scan(head + "X-Folded: a\r\n b\r\n\r\n").get(0).startsWith("REFUSE"), "one more");
        assertTrue(
                scan("GET / HTTP/1.1\r\n" + HOST + "X: a\r\n b\r\n\r\n").get(0).startsWith("HEAD_COMPLETE"),
                "an obs-fold line is not a new field");
    }

    @Test
    void contentAfterTheHeadIsAnnounced() {
        assertTrue(scan("POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\nhello")
                .get(0)
                .startsWith("CONTENT_FOLLOWS"));
        assertTrue(scan("GET / HTTP/1.1\r\n" + HOST + "transfer-encoding: chunked\r\n\r\n0\r\n\r\n")
                .get(0)
                .startsWith("CONTENT_FOLLOWS"));
        assertTrue(
                scan("GET / HTTP/1.1\r\n" + HOST + "Content-Length: x\r\n\r\n")
                        .get(0)
                        .startsWith("CONTENT_FOLLOWS"),
                "a malformed length is refused by the rules, so nothing after it is read either");
        assertEquals(
                2,
                scan("GET / HTTP/1.1\r\n" + HOST + "Content-Length: 00\r\n\r\nGET / HTTP/1.1\r\n" + HOST + "\r\n")
                        .size(),
                "a zero length is no content: the next head follows");
        assertEquals(
                2,
                scan("GET / HTTP/1.1\r\nContent-Lengthy: 5\r\nX-Content-Length: 5\r\n\r\nGET / HTTP/1.1\r\n\r\n")
                        .size());
    }

    @Test
    void contentLengthTogetherWithTransferEncodingIsRefused() {
        assertTrue(scan("POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n")
                .get(0)
                .startsWith("REFUSE"));
    }

    @Test
    void nothingIsFedAfterTheScannerIsDone() {
        RequestHeadScanner scanner = new RequestHeadScanner();
        scan(scanner, "\r\n");
        assertFalse(scanner.inHead());
        assertThrows(
                IllegalStateException.class, () -> scanner.partial("G".getBytes(StandardCharsets.ISO_8859_1), 0, 1));
    }
}
