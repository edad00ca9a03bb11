package dev.threadbench.common;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a delayed request waits out its delay. Each server implements all three. */
public enum Strategy {
    /** A platform worker thread sleeps through the delay. */
    BLOCKING,
    /** Nobody sleeps: a timer on the IO thread / event loop answers later. */
    TIMER,
    /** A virtual thread sleeps through the delay. */
    VIRTUAL;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Strategy of(String value) {
        for (Strategy s : values()) {
            if (s.id().equals(value.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new OptionException("--strategy: unknown strategy '" + value + "' (expected one of " + ids() + ")");
    }

    public static String ids() {
        return Arrays.stream(values()).map(Strategy::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id();
    }
}
