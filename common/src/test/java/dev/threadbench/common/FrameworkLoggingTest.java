package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class FrameworkLoggingTest {

    private final AtomicLong now = new AtomicLong();
    private final FrameworkLogging.OneLine formatter =
            new FrameworkLogging.OneLine(new RateLimitedLog(Duration.ofSeconds(10), now::get));

    private static LogRecord record(String logger, Level level, String message, Throwable thrown) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(logger);
        record.setThrown(thrown);
        return record;
    }

    @Test
    void anExceptionIsOneLineWithItsClassMessageAndPlaceNeverAStackTrace() {
        Exception failure = new IllegalStateException("bad state", new IOException("reset"));
        String line = formatter.format(
                record("io.netty.Acceptor", Level.WARNING, "Failed to register an accepted channel", failure));
        assertTrue(line.endsWith(System.lineSeparator()));
        String text = line.strip();
        assertFalse(text.contains("\n") || text.contains("\r") || text.contains("\tat "), text);
        assertTrue(
                text.contains("WARNING io.netty.Acceptor: Failed to register an accepted channel: "
                        + "java.lang.IllegalStateException: bad state (at"
                        + " dev.threadbench.common.FrameworkLoggingTest."),
                text);
        assertTrue(text.contains("; caused by java.io.IOException: reset"), text);
    }

    @Test
    void aFloodOfOneErrorClassGivesOneLinePerInterval() {
        int printed = 0;
        for (int i = 0; i < 10_000; i++) {
            String line = formatter.format(record(
                    "io.vertx.core.net.impl.ConnectionBase",
                    Level.SEVERE,
                    "request " + i,
                    new IllegalArgumentException("x" + i)));
            printed += line.isEmpty() ? 0 : 1;
        }
        assertEquals(1, printed);
        assertFalse(formatter
                .format(record("other", Level.SEVERE, "another class", null))
                .isEmpty());
    }

    @Test
    void lineBreaksFromOutsideCannotForgeLogLines() {
        String line = formatter.format(record(
                "dev.threadbench.undertow.Routes",
                Level.SEVERE,
                "GET /x\r\n2026-01-01T00:00:00 INFO forged failed",
                null));
        assertEquals(1, line.strip().lines().count(), line);
    }

    @Test
    void aVeryLongMessageIsCut() {
        String line = formatter.format(record("x", Level.WARNING, "a".repeat(100_000), null));
        assertTrue(line.length() < FrameworkLogging.MAX_LINE + 10, String.valueOf(line.length()));
    }

    @Test
    void parametersAreFilledIn() {
        LogRecord record = record("x", Level.WARNING, "{0} of {1}", null);
        record.setParameters(new Object[] {"one", "two"});
        assertTrue(formatter.format(record).contains("x: one of two"));
    }
}
