package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void theLineShowsRequestsRateFailuresAndTimeLeft() {
        String line = Progress.line(new Progress.Snapshot(0, 123_456, 7, 41.2, 0, "measuring"), 9876.4, 41.2);
        assertEquals("measuring      123,456 requests      9,876 req/s  7 failed  42 s left", line);
        assertTrue(Progress.line(new Progress.Snapshot(0, 0, 0, Double.NaN, 0, "warm-up"), 0, Double.NaN).endsWith("? left"));
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceElsePrintedNowAndThen() {
        ByteArrayOutputStream tty = new ByteArrayOutputStream();
        Progress.Sink terminal = Progress.Sink.forStream(new PrintStream(tty, true, StandardCharsets.UTF_8), true);
        terminal.update("one");
        terminal.update("two");
        terminal.done();
        assertEquals("\rone\rtwo\r   \r", tty.toString(StandardCharsets.UTF_8));

        ByteArrayOutputStream pipe = new ByteArrayOutputStream();
        Progress.Sink plain = Progress.Sink.forStream(new PrintStream(pipe, true, StandardCharsets.UTF_8), false);
        for (int i = 1; i <= 2 * Progress.PLAIN_EVERY_SECONDS; i++) {
            plain.update("tick " + i);
        }
        assertEquals("tick 10\ntick 20\n", pipe.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
