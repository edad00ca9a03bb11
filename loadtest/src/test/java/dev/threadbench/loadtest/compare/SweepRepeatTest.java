package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two sweeps of one server whose runs, near its limit, hold or collapse by chance: the grid, the narrowing in and the
 * ends measured again, as compare runs them ({@link Bisection}, {@link SweepPairs}), against a server whose every round
 * holds with probability p(C), falling from 1 to 0 across a band (logistic around C50). The 2026-12-03 sweeps read such
 * bands: Undertow timer held in 6 of 6 rounds at 5,000, 4 of 6 at 10,000, 1 of 6 at 11,000; Vert.x timer 5 of 6 at
 * 8,000, 3 of 6 at 9,000, 0 of 6 at 10,000.
 */
class SweepRepeatTest {

    private static final int SEEDS = 200;

    /** The band's scale as a share of C50: p falls from 0.88 to 0.12 over C50 +- 2 x scale. */
    private static final List<Double> SCALES = List.of(0.03, 0.06, 0.10);

    private static final List<Double> LIMITS = List.of(3800.0, 5800.0, 9200.0);

    /** How far the machine's state moves a limit between two sweeps, as a share of it. */
    private static final double SHIFT = 0.08;

    /**
     * Every pair's intervals overlapping in two sweeps needs each pair to repeat nearly always: six pairs that each
     * repeat 85 % of the time all repeat in 38 % of sweeps (the median of 3 rounds per reading did so here, 81-97 % a
     * pair, 2026-12-04).
     */
    @Test
    void twoSweepsOfOneServerWhoseRunsHoldByChanceAcrossABandGiveIntervalsThatOverlap() {
        repeat(0.0, 0.97);
    }

    /**
     * The machine's state moves between sweeps (2026-12-06: Undertow virtual at 7,500 held in 6 of 6 runs in one sweep
     * of a build and 1 of 6 in the next): the second sweep's server holds to a limit 8 % higher.
     */
    @Test
    void twoSweepsWhoseMachineMovedBetweenThemStillGiveIntervalsThatOverlap() {
        repeat(SHIFT, 0.90);
    }

    private static void repeat(double shift, double overlapAtLeast) {
        for (double limit : LIMITS) {
            for (double scale : SCALES) {
                int overlap = 0;
                int contain = 0;
                double width = 0;
                int afterGrid = 0;
                for (int seed = 0; seed < SEEDS; seed++) {
                    Sweep a = sweep(new Random(2L * seed), limit, scale * limit);
                    Sweep b = sweep(new Random(2L * seed + 1), limit * (1 + shift), scale * limit);
                    overlap += overlap(a.pair(), b.pair()) ? 1 : 0;
                    contain += contains(a.pair(), limit) ? 1 : 0;
                    width += a.pair().interval() == null ? 0 : a.pair().interval();
                    afterGrid += a.runsAfterGrid() + b.runsAfterGrid();
                }
                System.out.printf(
                        Locale.ROOT,
                        "C50 %,.0f (then +%.0f %%), scale %.0f %%: intervals overlap in %d of %d sweep pairs,"
                                + " contain C50 in %d of %d, %.0f %% wide on average, %.1f runs after the grid%n",
                        limit,
                        100 * shift,
                        100 * scale,
                        overlap,
                        SEEDS,
                        contain,
                        SEEDS,
                        100 * width / SEEDS,
                        afterGrid / (2.0 * SEEDS));
                assertTrue(overlap >= overlapAtLeast * SEEDS, overlap + " of " + SEEDS + " overlap");
                assertTrue(contain >= 0.90 * SEEDS, contain + " of " + SEEDS + " contain " + limit);
            }
        }
    }

    private record Sweep(SweepPair pair, int runsAfterGrid) {}

    /** One pair swept: the grid up to 19,000, the narrowing in to 10 %, the ends measured again; 3 rounds a point. */
    private static Sweep sweep(Random noise, double limit, double scale) {
        List<Run> runs = new ArrayList<>();
        int[] afterGrid = {0};
        java.util.function.BiConsumer<Integer, Run.Phase> measure = (c, phase) -> {
            double p = 1 / (1 + Math.exp((c - limit) / scale));
            for (int round = 0; round < 3; round++) {
                runs.add(round(c, round, noise.nextDouble() < p, phase));
            }
            afterGrid[0] += phase == Run.Phase.GRID ? 0 : 1;
        };
        RunLength.sweepGrid(19000).forEach(c -> measure.accept(c, Run.Phase.GRID));
        Set<Bisection.Step> tried = new HashSet<>();
        for (List<Bisection.Step> next = Bisection.next(SweepPairs.of(runs, List.of()), 0.10, tried);
                !next.isEmpty();
                next = Bisection.next(SweepPairs.of(runs, List.of()), 0.10, tried)) {
            tried.addAll(next);
            next.forEach(step -> measure.accept(step.concurrency(), Run.Phase.NARROWING));
        }
        for (int pass = 0; pass < SweepNarrowing.END_PASSES; pass++) {
            Bisection.ends(SweepPairs.of(runs, List.of()))
                    .forEach(step -> measure.accept(step.concurrency(), Run.Phase.ENDS));
        }
        return new Sweep(SweepPairs.of(runs, List.of()).getFirst(), afterGrid[0]);
    }

    /** As {@code report --baseline} judges a pair ({@code SweepAgreement.agree}). */
    private static boolean overlap(SweepPair a, SweepPair b) {
        if (a.heldAt() == null || b.heldAt() == null) {
            return a.heldAt() == null && b.heldAt() == null;
        }
        if (a.notHeldAt() == null || b.notHeldAt() == null) {
            return a.notHeldAt() == null && b.notHeldAt() == null;
        }
        return a.heldAt() < b.notHeldAt() && b.heldAt() < a.notHeldAt();
    }

    private static boolean contains(SweepPair p, double limit) {
        return p.heldAt() != null && p.notHeldAt() != null && p.heldAt() <= limit && limit < p.notHeldAt();
    }

    /** One round: held at 99 % of the bound, or collapsed at 85 % with the server's CPUs full. */
    private static Run round(int concurrency, int round, boolean held, Run.Phase phase) {
        double bound = 5.0 * concurrency;
        double ratio = held ? 0.99 : 0.85;
        return ResultsFixtures.flat(
                        "undertow",
                        "timer",
                        concurrency,
                        "embedded",
                        round,
                        Math.round(ratio * bound * 6),
                        new Results.Failed(0, 0, 0, 0, 0, 0, 0),
                        6.0,
                        ratio * bound,
                        bound,
                        ratio,
                        null,
                        null,
                        null,
                        held ? 0.5 : 0.99,
                        null,
                        null,
                        0.3,
                        !held,
                        false,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)
                .inPhase(phase, null);
    }
}
