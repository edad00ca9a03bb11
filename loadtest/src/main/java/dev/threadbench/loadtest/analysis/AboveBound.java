package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A closed-loop reading above the bound: C clients, each waiting out every delayed answer, cannot get more than
 * the bound, so a window that reads more caught more delayed answers than its share. It is a measurement artefact,
 * and is never shown as a result without saying so: flagged in the note column, its cause in the run's notes.
 */
public final class AboveBound {

    /**
     * A share of the bound above which a closed-loop reading is flagged: 100.5 % (a count's own rounding stays below).
     */
    public static final double LIMIT = 1.005;

    private AboveBound() {}

    /**
     * Whether {@code run}, a closed loop, read above {@link #LIMIT} of its bound (the open model's bound is C's, not
     * its own).
     */
    public static boolean of(Run run) {
        return run.open() == null
                && run.load().ratioToBound() != null
                && run.load().ratioToBound() > LIMIT;
    }

    /**
     * A sweep's points whose median over the rounds reads above {@link #LIMIT} of the bound, as the curves show them:
     * "vertx/timer C=1,000: 101.2 % of the bound"; each is flagged beside the sweep's table, never shown unflagged.
     * {@code pair}: only that pair's; null: every pair's.
     */
    public static List<String> sweepPoints(List<Cell> cells, SweepPair pair) {
        List<String> points = new ArrayList<>();
        for (Cell c : cells) {
            Spread ratio = c.spread(run -> run.load().ratioToBound());
            if (ratio != null
                    && ratio.median() > LIMIT
                    && (pair == null
                            || c.server().equals(pair.server()) && Objects.equals(c.strategy(), pair.strategy()))) {
                points.add(String.format(
                        Locale.ROOT,
                        "%s C=%,d: %.1f %% of the bound",
                        c.label(),
                        c.concurrency(),
                        100 * ratio.median()));
            }
        }
        return points;
    }

    /**
     * The run's note: how far above the bound, and why, from what the run was: a window of part of a delay period, a
     * ramp-up shorter than one (null when not known), or else the window's edges.
     */
    public static String note(double ratioToBound, double windowSeconds, Integer rampupSeconds, long delayMs) {
        double periods = windowSeconds * 1000 / delayMs;
        String delay = BigDecimal.valueOf(delayMs, 3).stripTrailingZeros().toPlainString();
        String cause;
        if (Math.abs(periods - Math.rint(periods)) > 0.02) {
            cause = String.format(
                    Locale.ROOT,
                    "its %.1f s window is %.2f delay periods of %s s, not a whole number, and caught"
                            + " a wave of delayed answers more than its share (a closed loop's come in waves one"
                            + " period apart)",
                    windowSeconds,
                    periods,
                    delay);
        } else if (rampupSeconds != null && rampupSeconds * 1000L < delayMs) {
            cause = String.format(
                    Locale.ROOT,
                    "its connections opened within %d s, less than one %s s delay period, so their"
                            + " delayed answers come in bunched waves, and the window's edges caught one more than"
                            + " its share",
                    rampupSeconds,
                    delay);
        } else {
            cause = "the window's edges caught more delayed answers than its share (they come in waves one delay period"
                    + " apart; a stall just before the window that released a wave inside it does the same)";
        }
        return String.format(
                Locale.ROOT,
                "above the bound: %.1f %% of it, more than C closed-loop clients can get: a"
                        + " measurement artefact, not a result: %s",
                100 * ratioToBound,
                cause);
    }
}
