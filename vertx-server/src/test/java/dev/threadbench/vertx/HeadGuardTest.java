package dev.threadbench.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.RequestLimits;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The guard in front of Vert.x's own decoder, as on a connection: what comes out of the two together. */
class HeadGuardTest {

    private static final String HEAD = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private final EmbeddedChannel channel = new EmbeddedChannel();

    HeadGuardTest() {
        HttpServerOptions options = new HttpServerOptions()
                .setMaxInitialLineLength(RequestLimits.PARSER_HEAD_BYTES)
                .setMaxHeaderSize(RequestLimits.PARSER_HEAD_BYTES);
        channel.pipeline()
                .addLast("headGuard", new HeadGuard())
                .addLast("httpDecoder", new VertxHttpRequestDecoder(options));
    }

    private void send(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
    }

    /**
     * What the decoder passed on: "GET / HTTP/1.1" per request it decoded, "refused" per one it refused, "content" per
     * content part.
     */
    private List<String> received() {
        List<String> received = new ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ReferenceCountUtil.release(message)) {
            if (message instanceof HttpRequest request) {
                received.add(
                        request.decoderResult().isSuccess()
                                ? request.method() + " " + request.uri() + " " + request.protocolVersion()
                                : "refused");
            } else if (message instanceof HttpContent content
                    && content.content().isReadable()) {
                received.add("content");
            } else if (!(message instanceof LastHttpContent)) {
                received.add(message.getClass().getSimpleName());
            }
        }
        return received;
    }

    @Test
    void aHeadArrivingAByteAtATimeIsPassedOnWhole() {
        for (char c : HEAD.toCharArray()) {
            send(String.valueOf(c));
        }
        assertEquals(List.of("GET / HTTP/1.1"), received());
    }

    @Test
    void pipelinedHeadsArePassedOnInTurn() {
        send(HEAD + HEAD.replace("GET / ", "GET /health "));
        assertEquals(List.of("GET / HTTP/1.1", "GET /health HTTP/1.1"), received());
    }

    @Test
    void aHeadSplitAcrossReadsInTheMiddleOfItsLinesIsPassedOnWhole() {
        send("GET / HT");
        send("TP/1.1\r\nHo");
        send("st: localhost\r");
        send("\n\r\nGET /stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertEquals(List.of("GET / HTTP/1.1", "GET /stats HTTP/1.1"), received());
    }

    @Test
    void whatNettyLetsThroughButUndertowRefusesIsRefused() {
        for (String head : List.of(
                "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
                "\r\n" + HEAD,
                "GET /\u0000 HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET / HTTP/2.0\r\nHost: a\r\n\r\n",
                "GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")) {
            HeadGuardTest fresh = new HeadGuardTest();
            fresh.send(head);
            assertEquals(List.of("refused"), fresh.received(), head);
        }
    }

    @Test
    void whatNettysDecoderRefusesItselfIsLeftToIt() {
        for (String head : List.of("GET / HTTP/1.1\r\nX-A: a\rb\r\n\r\n", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n")) {
            HeadGuardTest fresh = new HeadGuardTest();
            fresh.send(head);
            assertEquals(List.of("refused"), fresh.received(), head);
        }
    }

    @Test
    void aGoodHeadBeforeARefusedOneIsPassedOnFirstAndNothingAfterIsRead() {
        send(HEAD + "GET  / HTTP/1.1\r\n\r\n" + HEAD);
        assertEquals(List.of("GET / HTTP/1.1", "refused"), received());
        send(HEAD);
        assertEquals(List.of(), received());
    }

    @Test
    void contentAfterAHeadIsNotRead() {
        send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello" + HEAD);
        send(HEAD);
        assertEquals(List.of("POST / HTTP/1.1"), received());
    }

    @Test
    void anotherVersionIsServedAsHttp11AndHttp10AsItIs() {
        send(HEAD.replace("HTTP/1.1", "HTTP/1.2") + HEAD.replace("HTTP/1.1", "HTTP/1.0"));
        List<String> received = received();
        assertEquals(List.of("GET / " + HttpVersion.HTTP_1_1, "GET / " + HttpVersion.HTTP_1_0), received);
    }

    @Test
    void aHeadNotCompleteWithinTheTimeoutClosesTheConnection() {
        channel.freezeTime();
        send("GET / HTTP/1.1\r\nHo");
        long timeout = HttpLimits.HEADER_READ_TIMEOUT.toMillis();
        channel.advanceTimeBy(timeout - 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen());
    }

    @Test
    void aHeadCompletedInTimeKeepsTheConnection() {
        channel.freezeTime();
        send("GET / HTTP/1.1\r\nHo");
        channel.advanceTimeBy(HttpLimits.HEADER_READ_TIMEOUT.toMillis() / 2, TimeUnit.MILLISECONDS);
        send("st: a\r\n\r\n");
        channel.advanceTimeBy(Duration.ofMinutes(1).toMillis(), TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        assertEquals(List.of("GET / HTTP/1.1"), received());
    }

    @Test
    void aConnectionThatReadsNothingForTheIdleTimeoutIsClosed() {
        long timeout = HttpLimits.IDLE_TIMEOUT.toMillis();
        for (long at = 0; at < 3 * timeout; at += timeout / 3) { // a request now and then keeps it
            send(HEAD);
            channel.advanceTimeBy(timeout / 3, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
            assertTrue(channel.isOpen(), "closed while reading every " + timeout / 3 + " ms");
        }
        channel.advanceTimeBy(timeout - timeout / 3 - 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "closed before the idle timeout");
        channel.advanceTimeBy(timeout / 2, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "open half the idle timeout after it");
    }
}
