package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.analysis.ReadableNumber;
import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How a sweep narrows in once its grid is run: each server x strategy between the last concurrency it held and the
 * first it did not, at a readable midpoint ({@link ReadableNumber#between}), until the two are within the resolution,
 * (notHeld - held) / held. Every pair that still needs a step takes it together, each at its own midpoint, so that
 * the sweep takes about log2 steps whatever the number of pairs. A pair the generator stopped is narrowed in too (it
 * says where the generator gives out), and labelled so by {@link SweepPair}; one the machine stopped, or that held
 * throughout, has no interval to narrow.
 */
final class Bisection {

    /** One pair's next run: {@code strategy} null for a running server's own. */
    record Step(String server, String strategy, int concurrency, int heldAt, int notHeldAt, Limit limit) {

        /**
         * The planned server this step's pair came from: the one naming its strategy, else that server's own default
         * (strategy null), whose runs carry the strategy the server reported on its /stats; none when neither is
         * planned.
         */
        Optional<CompareSettings.Planned> plannedIn(List<CompareSettings.Planned> planned) {
            return planned.stream()
                    .filter(p -> server.equals(p.server()) && Objects.equals(strategy, p.strategy()))
                    .findFirst()
                    .or(() -> planned.stream()
                            .filter(p -> server.equals(p.server()) && p.strategy() == null)
                            .findFirst());
        }

        String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s/%s at %,d (held %,d, not held %,d%s)",
                    server,
                    strategy,
                    concurrency,
                    heldAt,
                    notHeldAt,
                    limit == Limit.GENERATOR ? ", the generator's limit" : "");
        }
    }

    private Bisection() {}

    /**
     * The next step of each pair whose interval is wider than {@code resolution}; none once all are narrow enough.
     * Where concurrencies between the ends held in some rounds only (its band), the steps narrow in on the band's two
     * edges instead, the wider gap first: last held to the band's lowest, its highest to the first not held. A step
     * already {@code tried} (its run lost, so the pair's interval did not move) is not taken again.
     */
    static List<Step> next(List<SweepPair> pairs, double resolution, Set<Step> tried) {
        List<Step> steps = new ArrayList<>();
        for (SweepPair p : pairs) {
            if (p.heldAt() == null || p.notHeldAt() == null) {
                continue;
            }
            // concurrencies held in some rounds only between the ends, a band: narrow in on its two edges, the wider
            // gap first
            List<Integer> band = p.band() == null
                    ? List.of()
                    : p.band().stream()
                            .map(SweepPair.Share::concurrency)
                            .filter(c -> c < p.notHeldAt())
                            .toList();
            int low = band.isEmpty() ? p.notHeldAt() : band.getFirst();
            int high = band.isEmpty() ? p.heldAt() : band.getLast();
            List<int[]> gaps = new ArrayList<>(List.of(new int[] {p.heldAt(), low}, new int[] {high, p.notHeldAt()}));
            gaps.sort(Comparator.comparingDouble((int[] g) -> -(g[1] - g[0]) / (double) g[0]));
            for (int[] gap : gaps) {
                if (gap[0] >= gap[1] || narrowEnough(gap[0], gap[1], resolution)) {
                    continue;
                }
                Integer midpoint = ReadableNumber.between(gap[0], gap[1]);
                Step step = midpoint == null
                        ? null
                        : new Step(p.server(), p.strategy(), midpoint, p.heldAt(), p.notHeldAt(), p.limit());
                if (step != null && !tried.contains(step)) {
                    steps.add(step);
                    break;
                }
            }
        }
        return steps;
    }

    /**
     * Once narrowed in: each pair's last held and first not held not yet measured again, to be measured with the
     * narrowing's procedure (a server started for the point and warmed), so that both ends of its interval are read
     * alike; held ends first. An end read otherwise the second time is no longer an end ({@code SweepPairs}): the
     * interval widens to the next concurrency out, which is then measured again in its turn.
     */
    static List<Step> ends(List<SweepPair> pairs) {
        List<Step> held = new ArrayList<>();
        List<Step> notHeld = new ArrayList<>();
        for (SweepPair p : pairs) {
            if (p.heldAt() == null || p.notHeldAt() == null) {
                continue;
            }
            if (p.ends() == null || p.ends().heldAgain() == null) {
                held.add(new Step(p.server(), p.strategy(), p.heldAt(), p.heldAt(), p.notHeldAt(), p.limit()));
            }
            if (p.ends() == null || p.ends().notHeldAgain() == null) {
                notHeld.add(new Step(p.server(), p.strategy(), p.notHeldAt(), p.heldAt(), p.notHeldAt(), p.limit()));
            }
        }
        held.addAll(notHeld);
        return held;
    }

    /** Whether the last held and the first not held are within {@code resolution} of each other, or adjacent. */
    static boolean narrowEnough(int heldAt, int notHeldAt, double resolution) {
        return notHeldAt - heldAt <= resolution * heldAt + 1e-9 || ReadableNumber.between(heldAt, notHeldAt) == null;
    }

    /**
     * The most steps narrowing from {@code heldAt} and {@code notHeldAt} can take, whichever way each midpoint falls.
     */
    static int stepsLeft(int heldAt, int notHeldAt, double resolution) {
        if (narrowEnough(heldAt, notHeldAt, resolution)) {
            return 0;
        }
        int midpoint = ReadableNumber.between(heldAt, notHeldAt);
        return 1 + Math.max(stepsLeft(heldAt, midpoint, resolution), stepsLeft(midpoint, notHeldAt, resolution));
    }

    /** The pairs' steps still to come, at most: one run per step in each round. */
    static int stepsLeft(List<SweepPair> pairs, double resolution) {
        return pairs.stream()
                .filter(p -> p.heldAt() != null && p.notHeldAt() != null)
                .mapToInt(p -> stepsLeft(p.heldAt(), p.notHeldAt(), resolution))
                .sum();
    }

    /**
     * Before the grid: the most steps one pair may take, breaking in the widest gap between two of its concurrencies.
     */
    static int stepsLeftInGrid(List<Integer> grid, double resolution) {
        List<Integer> sorted = grid.stream().sorted().distinct().toList();
        int most = 0;
        for (int i = 1; i < sorted.size(); i++) {
            most = Math.max(most, stepsLeft(sorted.get(i - 1), sorted.get(i), resolution));
        }
        return most;
    }
}
