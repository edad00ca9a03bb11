package dev.threadbench.loadtest.analysis;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A concurrency between two others, rounded so that it reads well (7,500 rather than 7,468): where a sweep narrows in
 * next, and a breaking point's estimate between the last concurrency held and the first not held.
 */
public final class ReadableNumber {

    private ReadableNumber() {}

    /**
     * The midpoint of {@code low} and {@code high} rounded to the coarsest of 1, 2 or 5 x 10^k that keeps it in the
     * middle third of the interval (so each bisection step still cuts at least a third of it); null when no whole
     * number lies strictly between them.
     */
    public static Integer between(int low, int high) {
        if (high - low < 2) {
            return null;
        }
        double mid = (low + (double) high) / 2;
        double third = (high - low) / 3.0;
        for (long step = coarsestStep(high); step >= 1; step = finer(step)) {
            long rounded = Math.round(mid / step) * step;
            if (rounded >= low + third && rounded <= high - third) {
                return (int) rounded;
            }
        }
        return (int) Math.round(mid);
    }

    /** A fraction as a percentage, without trailing zeros: 0.1 -> "10", 0.025 -> "2.5". */
    public static String percent(double fraction) {
        return BigDecimal.valueOf(100 * fraction)
                .setScale(2, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }

    /** The power of ten at or above {@code n}: the coarsest step worth trying. */
    private static long coarsestStep(int n) {
        long step = 1;
        while (step < n) {
            step *= 10;
        }
        return step;
    }

    /** 10 -> 5 -> 2 -> 1 -> 0.5 ...: the next finer of 1, 2, 5 x 10^k; 0 below 1. */
    private static long finer(long step) {
        String digits = Long.toString(step);
        return switch (digits.charAt(0)) {
            case '1' -> step == 1 ? 0 : step / 2;
            case '5' -> step * 2 / 5;
            default -> step / 2;
        };
    }
}
