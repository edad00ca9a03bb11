package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AnswerParserTest {

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    }

    /** Feeds {@code answer} in pieces of {@code piece} bytes; true once complete. */
    private static boolean feed(AnswerParser parser, String answer, int piece) {
        boolean done = false;
        for (int i = 0; i < answer.length(); i += piece) {
            assertFalse(done, "complete before its last byte");
            done = parser.read(bytes(answer.substring(i, Math.min(answer.length(), i + piece))));
        }
        return done;
    }

    @Test
    void readsAnAnswerByItsContentLengthHoweverItArrives() {
        String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\ncontent-length: 10\r\n\r\n0123456789";
        for (int piece : new int[] {1, 3, 7, answer.length()}) {
            AnswerParser parser = new AnswerParser();
            parser.expect(false);
            assertTrue(feed(parser, answer, piece), "pieces of " + piece);
            assertEquals(200, parser.status());
            assertTrue(parser.keepAlive());
            assertNull(parser.check());
        }
    }

    @Test
    void oneParserReadsItsConnectionsAnswersOneAfterAnother() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertTrue(parser.read(bytes("HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nno")));
        assertEquals(FailureCause.NON_2XX, parser.check());
        parser.expect(false);
        assertFalse(parser.headDone());
        assertTrue(parser.read(bytes("HTTP/1.1 204 No Content\r\n\r\n")), "204 has no body");
        assertNull(parser.check());
    }

    @Test
    void aHeadAnswerHasNoBodyWhateverItsLength() {
        AnswerParser parser = new AnswerParser();
        parser.expect(true);
        assertTrue(parser.read(bytes("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n")));
        assertNull(parser.check());
    }

    @Test
    void readsChunkedBodiesAndSkipsInterimAnswers() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        String answer = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n";
        assertTrue(feed(parser, answer, 4));
        assertEquals(200, parser.status());
        assertNull(parser.check());
        assertTrue(parser.keepAlive());
    }

    @Test
    void aBodyWithoutALengthEndsWithTheConnection() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertFalse(parser.read(bytes("HTTP/1.0 200 OK\r\n\r\nsome bytes")));
        assertTrue(parser.headDone());
        assertTrue(parser.untilClose());
        parser.closed();
        assertTrue(parser.done());
        assertFalse(parser.keepAlive());
        assertNull(parser.check());
    }

    @Test
    void aBodyCutShortNeverCompletes() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertFalse(parser.read(bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")));
        assertTrue(parser.headDone());
        parser.closed();
        assertFalse(parser.done(), "the connection's close fails it as a short body");
    }

    @Test
    void connectionCloseAndHttp10AreNotKeptAlive() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertTrue(parser.read(bytes("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")));
        assertFalse(parser.keepAlive());
        parser.expect(false);
        assertTrue(parser.read(bytes("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")));
        assertFalse(parser.keepAlive());
        parser.expect(false);
        assertTrue(parser.read(bytes("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")));
        assertTrue(parser.keepAlive());
    }

    @Test
    void aLongHeaderLineIsReadWholeAndOneTooLongRefused() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertTrue(feed(
                parser, "HTTP/1.1 200 OK\r\nSet-Cookie: " + "x".repeat(5000) + "\r\nContent-Length: 1\r\n\r\n!", 1000));
        assertNull(parser.check());
        parser.expect(false);
        assertThrows(
                AnswerParser.Malformed.class, () -> parser.read(bytes("HTTP/1.1 200 OK\r\nX: " + "x".repeat(20_000))));
    }

    @Test
    void refusesWhatIsNotHttp() {
        AnswerParser parser = new AnswerParser();
        parser.expect(false);
        assertTrue(assertThrows(AnswerParser.Malformed.class, () -> parser.read(bytes("SSH-2.0-OpenSSH\r\n")))
                .getMessage()
                .contains("not an HTTP/1.x status line"));
        parser.expect(false);
        assertThrows(
                AnswerParser.Malformed.class,
                () -> parser.read(bytes("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n")));
        parser.expect(false);
        assertEquals(
                "not a status code: 2000 OK",
                assertThrows(
                                AnswerParser.Malformed.class,
                                () -> parser.read(bytes("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n")))
                        .getMessage(),
                "four digits");
        parser.expect(false);
        assertEquals(
                "not a status code: 2000",
                assertThrows(
                                AnswerParser.Malformed.class,
                                () -> parser.read(bytes("HTTP/1.1 2000\r\nContent-Length: 0\r\n\r\n")))
                        .getMessage(),
                "four digits, no reason");
        parser.expect(false);
        assertEquals(
                "Content-Length given twice",
                assertThrows(
                                AnswerParser.Malformed.class,
                                () -> parser.read(
                                        bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")))
                        .getMessage());
        parser.expect(false);
        assertThrows(
                AnswerParser.Malformed.class,
                () -> parser.read(bytes("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nContent-Length: 5\r\n\r\nok")));
        parser.expect(false);
        parser.read(bytes("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok"));
        assertTrue(parser.done() && parser.status() == 200, "no reason phrase: still a status line");
        parser.expect(false);
        assertThrows(
                AnswerParser.Malformed.class,
                () -> parser.read(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")));
    }
}
