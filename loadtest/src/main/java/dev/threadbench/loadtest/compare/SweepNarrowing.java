package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.analysis.ReadableNumber;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepPair;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * After the sweep's grid: each pair narrowed in between its last concurrency held and its first not held
 * ({@link Bisection}), then both ends measured again the way the narrowing measures; each run in a server started for
 * it, warmed at the run's own concurrency first ({@link RunLength#FRESH_SERVER_WARMUP_SECONDS}).
 */
final class SweepNarrowing {

    /**
     * Every round of some planned servers' runs, as the grid's; false when the engine said no run can go on.
     *
     * @param freshServerWarmupSeconds the warm-up of a run whose server compare starts for it alone; null: the
     *     settings' (a grid server climbs through its concurrencies in one process)
     */
    interface Rounds {
        boolean run(
                Map<Planned, List<CompareSettings.Load>> plan,
                Integer freshServerWarmupSeconds,
                String logSuffix,
                Run.Phase phase);
    }

    /** Passes measuring ends again: the first, then up to two widenings past an end read otherwise. */
    static final int END_PASSES = 3;

    private final CompareSettings settings;
    private final PointProgress progress;
    private final Rounds rounds;
    private final PrintStream out;

    SweepNarrowing(CompareSettings settings, PointProgress progress, Rounds rounds, PrintStream out) {
        this.settings = settings;
        this.progress = progress;
        this.rounds = rounds;
        this.out = out;
    }

    /** Narrows in, then measures the ends again, adding to {@code runs}; stops when no run can go on. */
    void run(List<Run> runs, List<Results.Skipped> skipped) {
        if (narrowIn(runs, skipped)) {
            measureEndsAgain(runs, skipped);
        }
    }

    /**
     * Step by step, every pair not yet narrow enough at its own midpoint, in every round with the servers in turn as in
     * the grid, until none is left; false when the engine said no run can go on.
     */
    private boolean narrowIn(List<Run> runs, List<Results.Skipped> skipped) {
        double resolution = settings.sweep().resolution();
        int rounds = settings.runs().rounds();
        Set<Bisection.Step> tried = new HashSet<>();
        for (int step = 1; ; step++) {
            List<SweepPair> pairs = SweepPairs.of(runs, skipped);
            List<Bisection.Step> next = Bisection.next(pairs, resolution, tried);
            if (next.isEmpty()) {
                return true;
            }
            tried.addAll(next);
            List<SweepPair> narrowing = pairs.stream()
                    .filter(p -> next.stream()
                            .anyMatch(n -> n.server().equals(p.server()) && Objects.equals(n.strategy(), p.strategy())))
                    .toList();
            progress.remaining(rounds
                    * (Bisection.stepsLeft(narrowing, resolution)
                            + Bisection.ends(pairs).size()));
            out.printf(
                    Locale.ROOT,
                    "%nnarrowing in, step %d (until the first not held is within %s %% of the last" + " held): %s%n",
                    step,
                    ReadableNumber.percent(resolution),
                    describe(next));
            out.flush();
            if (!stepRounds(next, "-step" + step, Run.Phase.NARROWING)) {
                return false;
            }
        }
    }

    /**
     * Once narrowed in: each pair's last held and then its first not held measured again, each on a server started for
     * it and warmed as the narrowing's midpoints are, in every round, so that both ends of its interval are read with
     * one procedure (a grid point's server had climbed through every concurrency below it). Kept beside the first
     * readings. An end read otherwise the second time widens the interval to the next concurrency out, measured again
     * in the next pass; at most {@value #END_PASSES} passes, after which an end not measured again leaves the pair
     * unconfirmed.
     */
    private void measureEndsAgain(List<Run> runs, List<Results.Skipped> skipped) {
        for (int pass = 1; pass <= END_PASSES; pass++) {
            List<Bisection.Step> ends = Bisection.ends(SweepPairs.of(runs, skipped));
            if (ends.isEmpty()) {
                return;
            }
            progress.remaining(settings.runs().rounds() * ends.size());
            String widened = pass == 1 ? "" : ", widened past an end read otherwise";
            List<Bisection.Step> held =
                    ends.stream().filter(e -> e.concurrency() == e.heldAt()).toList();
            List<Bisection.Step> notHeld =
                    ends.stream().filter(e -> e.concurrency() != e.heldAt()).toList();
            if (!measureAgain(held, "held", widened, pass) || !measureAgain(notHeld, "not-held", widened, pass)) {
                return;
            }
        }
    }

    /** One group of ends (held, or not held) measured again, if any; false when the engine said no run can go on. */
    private boolean measureAgain(List<Bisection.Step> ends, String which, String widened, int pass) {
        if (ends.isEmpty()) {
            return true;
        }
        out.printf(
                Locale.ROOT,
                "%nmeasuring the ends again as the narrowing measures%s, %s ends: %s%n",
                widened,
                which,
                describe(ends));
        out.flush();
        return stepRounds(ends, "-" + which + "-end" + suffix(pass), Run.Phase.ENDS);
    }

    private static String suffix(int pass) {
        return pass == 1 ? "" : "-" + pass;
    }

    /** One run per step (at most one per planned server), every round, each server started for it warmed first. */
    private boolean stepRounds(List<Bisection.Step> steps, String logSuffix, Run.Phase phase) {
        Map<Planned, List<CompareSettings.Load>> plan = new LinkedHashMap<>();
        for (Bisection.Step n : steps) {
            Planned planned = n.plannedIn(settings.runs().planned())
                    .orElseThrow(() -> new IllegalStateException("no planned server for " + n));
            plan.put(planned, List.of(CompareSettings.Load.closed(n.concurrency())));
        }
        return rounds.run(
                plan, RunLength.freshServerWarmupSeconds(settings.generator().timing()), logSuffix, phase);
    }

    private static String describe(List<Bisection.Step> steps) {
        return String.join("; ", steps.stream().map(Bisection.Step::describe).toList());
    }
}
