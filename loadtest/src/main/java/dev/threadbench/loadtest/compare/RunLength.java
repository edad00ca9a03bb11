package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.engine.Engine;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * compare's default timings and rounds, for a plain compare and for a sweep, each with or without --quick;
 * any of them given on the command line wins.
 *
 * <p>Every measured window is a whole number of delay periods ({@link #wholePeriods} rounds a --duration up to one): a
 * closed loop's delayed answers come in waves one period apart, so a window cut mid-period catches one wave more or
 * less and reads above or below the bound (docs/measurements/2026-12-01-whole-delay-periods.md).
 *
 * <p>Plain compare: 6 rounds of one period each, because the verdict's Holm correction over its 12 tests needs 6
 * rounds a side before any difference can be named, and the default run must stay under 7 minutes
 * (docs/calibration.md gives the arithmetic). --quick: 3 rounds, too few to name a difference, and says so. Each server
 * runs its concurrencies in one process, lowest first, so only its first run of a round meets a cold JIT.
 *
 * <p>Sweep: a grid of 3 short rounds, each server climbing through the concurrencies in one process; then the narrowing
 * ({@link Bisection}) and the ends, each run on a server started for it and warmed at its own concurrency
 * ({@link #FRESH_SERVER_WARMUP_SECONDS}). docs/sweep.md gives how long each takes; CompareHeader prints the bound
 * before the first run.
 */
record RunLength(int rampupSeconds, int warmupSeconds, int durationSeconds, int rounds, boolean autoWarmup) {

    RunLength(int rampupSeconds, int warmupSeconds, int durationSeconds, int rounds) {
        this(rampupSeconds, warmupSeconds, durationSeconds, rounds, false);
    }

    /** --warmup auto ends at the first whole delay period at which {@link WarmUp} says the JIT settled, or at this. */
    static final int AUTO_WARMUP_CAP_SECONDS = 20;
    /** The span of a target's JIT reading from its /stats: the last 2 s, one delay period with the defaults. */
    static final int AUTO_WARMUP_JIT_SECONDS = 2;
    /**
     * The warm-up when auto cannot be (another engine, agents, the open model, --iterations): the fixed one before it.
     */
    static final int FIXED_WARMUP_SECONDS = 8;

    static final List<Integer> SWEEP_CONCURRENCIES = List.of(250, 500, 1000, 2000, 5000, 10000);
    /** Where the sweep's grid ends when the machine's headroom is unknown (--sweep-max goes further). */
    static final int SWEEP_MAX_UNKNOWN = 10000;
    /** --resolution's default: narrow in until the first concurrency not held is within 10 % of the last held. */
    static final double SWEEP_RESOLUTION = 0.10;

    static final RunLength COMPARE = new RunLength(2, FIXED_WARMUP_SECONDS, 2, 6, true);
    static final RunLength COMPARE_QUICK = new RunLength(2, 4, 4, 3);
    static final RunLength SWEEP = new RunLength(2, 2, 6, 3);
    static final RunLength SWEEP_QUICK = new RunLength(2, 2, 4, 1);

    /**
     * The warm-up of a run whose server compare started for it alone (the sweep's narrowing and ends), at the run's own
     * concurrency, in place of the grid's 2 s: a grid point's server has run every concurrency below it first. As long
     * as a fresh server's compiler threads take to settle under load (docs/sweep.md, "The JIT in the window"); a whole
     * number of delay periods.
     */
    static final int FRESH_SERVER_WARMUP_SECONDS = 20;

    /** A fresh server's warm-up: {@link #FRESH_SERVER_WARMUP_SECONDS}, or the one given when that is longer. */
    static int freshServerWarmupSeconds(Engine.Timing timing) {
        return Math.max(FRESH_SERVER_WARMUP_SECONDS, timing.warmupSeconds());
    }

    /** The longest whole number of seconds a window may have to grow by to hold whole delay periods. */
    static final long MAX_STEP_SECONDS = 60;

    /**
     * The sweep's grid up to {@code max}: 250, 500, then 1, 2 and 5 x 10^k (1,000, 2,000, 5,000, 10,000, 20,000,
     * 50,000, 100,000 ...), and {@code max} itself as the last point when it falls between two.
     */
    static List<Integer> sweepGrid(int max) {
        List<Integer> grid = new ArrayList<>(List.of(250, 500));
        for (long step = 1000; grid.getLast() <= max && grid.getLast() < Integer.MAX_VALUE; step *= 10) {
            for (long n : new long[] {step, 2 * step, 5 * step}) {
                grid.add((int) Math.min(Integer.MAX_VALUE, n));
            }
        }
        return capped(grid, max);
    }

    /** The grid's first point above {@code max}: where the sweep would go next. */
    static int nextGridPoint(int max) {
        List<Integer> grid = sweepGrid(Integer.MAX_VALUE / 10);
        return grid.stream().filter(c -> c > max).findFirst().orElse(Integer.MAX_VALUE);
    }

    /** {@code concurrencies} without those above {@code max}, and with {@code max} itself as the last when any was. */
    static List<Integer> capped(List<Integer> concurrencies, int max) {
        List<Integer> capped =
                new ArrayList<>(concurrencies.stream().filter(c -> c <= max).toList());
        if (concurrencies.stream().anyMatch(c -> c > max) && !capped.contains(max)) {
            capped.add(max);
        }
        return capped;
    }

    /** {@code n} rounded down to two significant digits: 19,488 -> 19,000, a readable most. */
    static int roundDown(int n) {
        int scale = 1;
        while (n / scale >= 100) {
            scale *= 10;
        }
        return n / scale * scale;
    }

    static RunLength of(boolean sweep, boolean quick) {
        return sweep ? quick ? SWEEP_QUICK : SWEEP : quick ? COMPARE_QUICK : COMPARE;
    }

    /**
     * The shortest window of whole seconds that is also a whole number of {@code delayMs} periods: lcm(delay, 1 s),
     * in seconds (2 for 2000 ms, 3 for 1500, 1 for 200 or 500).
     */
    static long stepSeconds(long delayMs) {
        return delayMs / gcd(delayMs, 1000);
    }

    /**
     * {@code seconds} rounded up to a whole number of delay periods; as given without a delay (--delay-every 0 or
     * --delay-ms 0), where no waves come.
     *
     * @throws UsageException when whole periods fit whole seconds only past {@link #MAX_STEP_SECONDS} (--delay-ms 1234)
     */
    static int wholePeriods(int seconds, int delayEvery, long delayMs) {
        if (delayEvery <= 0 || delayMs <= 0) {
            return seconds;
        }
        long step = stepSeconds(delayMs);
        if (step > MAX_STEP_SECONDS) {
            throw new UsageException(String.format(
                    Locale.ROOT,
                    "--delay-ms: a measured window must be a whole number of delay"
                            + " periods, and %d ms periods add up to whole seconds only every %d s; give a delay that"
                            + " does within a"
                            + " minute (500, 1000, 1500, 2000, ...)",
                    delayMs,
                    step));
        }
        return (int) Math.min(Integer.MAX_VALUE, (seconds + step - 1) / step * step);
    }

    /** The one line said when {@link #wholePeriods} changed a window; null when it did not. */
    static String roundedNote(String what, int given, int rounded, long delayMs) {
        if (given == rounded) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "%s %d s rounded up to %d s, %d whole delay periods of %s s: a closed loop's delayed"
                        + " answers come in waves one period apart, and a window of part of one catches a wave more"
                        + " or less",
                what,
                given,
                rounded,
                rounded * 1000L / delayMs,
                BigDecimal.valueOf(delayMs, 3).stripTrailingZeros().toPlainString());
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
