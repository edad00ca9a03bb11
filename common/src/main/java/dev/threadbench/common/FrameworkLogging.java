package dev.threadbench.common;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * java.util.logging, which Undertow (through jboss-logging), Vert.x and Netty all fall back to here:
 * the frameworks only speak at WARNING and above, the servers' own loggers at INFO. Every record is
 * one line, an exception shown by its class, message and the line it was thrown at, never a stack
 * trace; and each error class (logger, level, exception class) gets at most one line per
 * {@link RateLimitedLog#INTERVAL}, so an attack cannot flood the log.
 */
public final class FrameworkLogging {

    /** Longest line logged; the rest of a longer message is cut. */
    static final int MAX_LINE = 2_000;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneId.systemDefault());

    private FrameworkLogging() {}

    public static void quiet(String... frameworkPackages) {
        StringBuilder config = new StringBuilder()
                .append("handlers=java.util.logging.ConsoleHandler\n")
                .append(".level=INFO\n")
                .append("java.util.logging.ConsoleHandler.level=ALL\n");
        for (String pkg : frameworkPackages) {
            config.append(pkg).append(".level=WARNING\n");
        }
        try {
            LogManager.getLogManager()
                    .readConfiguration(
                            new ByteArrayInputStream(config.toString().getBytes(StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OneLine oneLine = new OneLine(new RateLimitedLog());
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setFormatter(oneLine);
        }
    }

    /** Formats a record as one line, or as nothing when its error class has had its line for now. */
    static final class OneLine extends Formatter {
        private final RateLimitedLog limit;

        OneLine(RateLimitedLog limit) {
            this.limit = limit;
        }

        @Override
        public String format(LogRecord record) {
            Throwable thrown = record.getThrown();
            String errorClass = record.getLoggerName() + " " + record.getLevel()
                    + (thrown == null ? "" : " " + thrown.getClass().getName());
            String line = limit.admit(errorClass, describe(record));
            return line == null ? "" : line + System.lineSeparator();
        }

        /** time LEVEL logger: message: exception class: its message (at the line it was thrown), one line. */
        static String describe(LogRecord record) {
            StringBuilder line = new StringBuilder()
                    .append(TIME.format(Instant.ofEpochMilli(record.getMillis())))
                    .append(' ')
                    .append(record.getLevel())
                    .append(' ')
                    .append(record.getLoggerName())
                    .append(": ")
                    .append(formatMessageOf(record));
            for (Throwable t = record.getThrown(), cause = null; t != null && t != cause; cause = t, t = t.getCause()) {
                line.append(cause == null ? ": " : "; caused by ")
                        .append(t.getClass().getName());
                if (t.getMessage() != null) {
                    line.append(": ").append(t.getMessage());
                }
                StackTraceElement[] frames = t.getStackTrace();
                if (frames.length > 0) {
                    line.append(" (at ")
                            .append(frames[0].getClassName())
                            .append('.')
                            .append(frames[0].getMethodName())
                            .append(':')
                            .append(frames[0].getLineNumber())
                            .append(')');
                }
            }
            return oneLine(line);
        }

        private static String formatMessageOf(LogRecord record) {
            String message = record.getMessage();
            if (message == null) {
                return "";
            }
            Object[] parameters = record.getParameters();
            if (parameters == null || parameters.length == 0) {
                return message;
            }
            try {
                return MessageFormat.format(message, parameters);
            } catch (IllegalArgumentException e) {
                return message;
            }
        }

        /** Control characters (a line break from a request, say) become spaces; too long a line is cut. */
        private static String oneLine(CharSequence text) {
            int length = Math.min(text.length(), MAX_LINE);
            StringBuilder clean = new StringBuilder(length + 3);
            for (int i = 0; i < length; i++) {
                char c = text.charAt(i);
                clean.append(Character.isISOControl(c) ? ' ' : c);
            }
            if (text.length() > MAX_LINE) {
                clean.append("...");
            }
            return clean.toString();
        }
    }
}
