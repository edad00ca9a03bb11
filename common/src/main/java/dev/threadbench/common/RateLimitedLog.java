package dev.threadbench.common;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Lets through one log line per error class and interval, so that a flood of bad requests or
 * connections cannot flood the log: the first line of a class passes at once; the ones after it within
 * {@link #INTERVAL} are dropped and counted, and the next line of that class to pass says how many were.
 * Thread-safe.
 */
public final class RateLimitedLog {

    /** At most one line per error class this often. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);
    /** Error classes tracked apart; beyond this many, the rest share one (an attacker cannot grow the map). */
    static final int MAX_CLASSES = 1_000;

    static final String OTHER_CLASS = "(other error classes)";

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    public RateLimitedLog() {
        this(INTERVAL, System::nanoTime);
    }

    RateLimitedLog(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * The line to log for one occurrence of {@code errorClass}, with a note of how many lines of its class
     * were dropped before it; or null when this one is to be dropped.
     */
    public String admit(String errorClass, String line) {
        String key = windows.size() < MAX_CLASSES || windows.containsKey(errorClass) ? errorClass : OTHER_CLASS;
        Window window = windows.computeIfAbsent(key, k -> new Window());
        long dropped = window.pass(nanoClock.getAsLong(), intervalNanos);
        if (dropped < 0) {
            return null;
        }
        return dropped == 0
                ? line
                : line + " (" + dropped + " more like this in the last " + INTERVAL.toSeconds() + " s not logged)";
    }

    private static final class Window {
        private boolean used;
        private long nextPass;
        private long dropped;

        /** -1 to drop this line; else how many were dropped since the last line that passed. */
        synchronized long pass(long now, long intervalNanos) {
            if (used && now - nextPass < 0) {
                dropped++;
                return -1;
            }
            used = true;
            nextPass = now + intervalNanos;
            long before = dropped;
            dropped = 0;
            return before;
        }
    }
}
