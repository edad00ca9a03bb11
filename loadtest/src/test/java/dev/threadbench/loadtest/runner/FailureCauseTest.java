package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.http.HttpClosedException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class FailureCauseTest {

    @Test
    void classifiesByExceptionAndWhetherTheAnswerHadBegun() {
        assertEquals(FailureCause.TIMEOUT, FailureCause.of(new TimeoutException("idle"), false));
        assertEquals(FailureCause.TIMEOUT, FailureCause.of(new RuntimeException(new TimeoutException("idle")), true));
        assertEquals(
                FailureCause.REFUSED, FailureCause.of(new ConnectException("Connection refused: /127.0.0.1:1"), false));
        assertEquals(
                FailureCause.TIMEOUT,
                FailureCause.of(new ConnectException("connection timed out: /10.0.0.1:80"), false));
        assertEquals(FailureCause.RESET, FailureCause.of(new SocketException("Connection reset"), false));
        assertEquals(FailureCause.RESET, FailureCause.of(new HttpClosedException("Connection was closed"), false));
        assertEquals(FailureCause.SHORT_BODY, FailureCause.of(new HttpClosedException("Connection was closed"), true));
        assertEquals(FailureCause.OTHER, FailureCause.of(new IllegalStateException("odd"), false));
    }

    @Test
    void keysAreTheNamesUsedInResults() {
        assertEquals("non2xx", FailureCause.NON_2XX.key());
        assertEquals("shortBody", FailureCause.SHORT_BODY.key());
    }
}
