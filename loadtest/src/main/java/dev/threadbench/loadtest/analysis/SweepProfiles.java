package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Profile;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The sweep's profiles side by side: for each server x strategy, its bucket shares at the concurrency CPU per request
 * is compared at (2000, or the swept one nearest it) and at the largest concurrency it still held, each share the
 * median of the rounds profiled there. With --sweep, --profile profiles every run, since which concurrency a pair holds
 * is known only once all its rounds have run; this picks the two afterwards.
 *
 * @param at          why this concurrency: "CPU per request", "largest held", or both when they are one
 * @param flameGraphs the rounds' flame graphs, relative to the results directory
 */
public record SweepProfiles(
        String server,
        String strategy,
        int concurrency,
        String at,
        int rounds,
        List<Profile.Share> buckets,
        List<String> flameGraphs) {

    static final String CPU = "CPU per request";
    static final String LARGEST_HELD = "largest held";

    public SweepProfiles {
        buckets = List.copyOf(buckets);
        flameGraphs = List.copyOf(flameGraphs);
    }

    /** Per pair, in the pairs' order, its rows: none where no run at those concurrencies was profiled. */
    public static List<SweepProfiles> of(List<SweepPair> pairs, List<Profile> profiles) {
        List<SweepProfiles> rows = new ArrayList<>();
        for (SweepPair pair : pairs) {
            Set<Integer> concurrencies = new LinkedHashSet<>();
            concurrencies.add(pair.cpuConcurrency());
            if (pair.heldAt() != null) {
                concurrencies.add(pair.heldAt());
            }
            for (int concurrency : concurrencies) {
                List<Profile> found = profiles.stream()
                        .filter(p -> p.server().equals(pair.server())
                                && Objects.equals(p.strategy(), pair.strategy())
                                && p.concurrency() == concurrency)
                        .toList();
                if (found.isEmpty()) {
                    continue;
                }
                String at = concurrency == pair.cpuConcurrency() && Objects.equals(pair.heldAt(), concurrency)
                        ? CPU + ", " + LARGEST_HELD
                        : concurrency == pair.cpuConcurrency() ? CPU : LARGEST_HELD;
                rows.add(new SweepProfiles(
                        pair.server(),
                        pair.strategy(),
                        concurrency,
                        at,
                        found.size(),
                        medianShares(found),
                        found.stream().map(Profile::flameGraph).toList()));
            }
        }
        return rows;
    }

    /** Each bucket's median share over the profiles (the first one's buckets, in its order). */
    private static List<Profile.Share> medianShares(List<Profile> found) {
        List<Profile.Share> shares = new ArrayList<>();
        for (Profile.Share bucket : found.getFirst().buckets()) {
            double median = Spread.of(found.stream()
                            .flatMap(p -> p.buckets().stream())
                            .filter(s -> s.bucket().equals(bucket.bucket()))
                            .map(Profile.Share::share)
                            .toList())
                    .median();
            shares.add(new Profile.Share(bucket.bucket(), bucket.title(), Math.round(1000 * median) / 1000.0));
        }
        return shares;
    }
}
