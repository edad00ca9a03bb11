package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.Profile;
import dev.threadbench.loadtest.model.SweepFixtures;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepProfilesTest {

    private static Profile profile(String server, String strategy, int concurrency, int round, double ioLoop) {
        return new Profile(
                server,
                strategy,
                concurrency,
                round,
                "cpu",
                "itimer",
                "profiles/" + server + "-" + strategy + "-" + concurrency + "-round" + (round + 1) + ".html",
                1000,
                "samples",
                List.of(
                        new Profile.Share("io", "the IO loop", ioLoop),
                        new Profile.Share("other", "the rest", 1 - ioLoop)));
    }

    @Test
    void eachPairGetsItsProfilesAt2000AndAtItsLargestConcurrencyHeldTheRoundsMedian() {
        List<SweepPair> pairs = SweepPairs.of(SweepFixtures.sweep(List.of()).runs(), List.of());
        List<Profile> profiles = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : SweepFixtures.CONCURRENCIES) {
                profiles.add(profile("undertow", "blocking", c, round, 0.1 * (round + 1) + c / 10_000.0));
                profiles.add(profile("undertow", "timer", c, round, 0.5));
            }
        }
        List<SweepProfiles> rows = SweepProfiles.of(pairs, profiles);

        // undertow/blocking held up to 1,000 and broke at 2,000; undertow/timer held at 2,000, the largest swept;
        // vertx: none profiled
        assertEquals(
                List.of(
                        "undertow/blocking 2000 CPU per request",
                        "undertow/blocking 1000 largest held",
                        "undertow/timer 2000 CPU per request, largest held"),
                rows.stream()
                        .map(r -> r.server() + "/" + r.strategy() + " " + r.concurrency() + " " + r.at())
                        .toList());
        SweepProfiles held = rows.get(1);
        assertEquals(3, held.rounds());
        assertEquals(0.3, held.buckets().getFirst().share(), 1e-9, "the median of 0.2, 0.3 and 0.4 (+0.1 at C=1,000)");
        assertEquals("io", held.buckets().getFirst().bucket());
        assertEquals(
                List.of(
                        "profiles/undertow-blocking-1000-round1.html",
                        "profiles/undertow-blocking-1000-round2.html",
                        "profiles/undertow-blocking-1000-round3.html"),
                held.flameGraphs());
    }

    @Test
    void noProfilesNoRows() {
        List<SweepPair> pairs = SweepPairs.of(SweepFixtures.sweep(List.of()).runs(), List.of());
        assertTrue(SweepProfiles.of(pairs, List.of()).isEmpty());
    }
}
