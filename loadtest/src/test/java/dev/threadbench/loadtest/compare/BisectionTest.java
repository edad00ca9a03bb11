package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/** Where the sweep narrows in after its grid, and when it stops. */
class BisectionTest {

    private static SweepPair pair(String server, String strategy, Integer heldAt, Integer notHeldAt, String limit) {
        return pair(server, strategy, heldAt, notHeldAt, limit, null);
    }

    private static SweepPair pair(
            String server, String strategy, Integer heldAt, Integer notHeldAt, String limit, SweepPair.Ends ends) {
        return new SweepPair(
                server,
                strategy,
                null,
                heldAt,
                notHeldAt,
                Limit.of(limit),
                limit,
                notHeldAt,
                null,
                null,
                null,
                2000,
                null,
                null,
                null,
                ends,
                null,
                null);
    }

    @Test
    void eachPairNotYetNarrowEnoughTakesAStepAtItsOwnReadableMidpoint() {
        List<SweepPair> pairs = List.of(
                pair("undertow", "blocking", 5000, 10000, "server"),
                pair("vertx", "timer", 1000, 2000, "generator"),
                pair("vertx", "virtual", 6600, 6900, "server"),
                pair("undertow", "timer", 19000, null, "machine"),
                pair("undertow", "virtual", 10000, null, "none"),
                pair("vertx", "blocking", null, 250, "server"));
        List<Bisection.Step> steps = Bisection.next(pairs, 0.10, Set.of());
        assertEquals(
                List.of(
                        new Bisection.Step("undertow", "blocking", 8000, 5000, 10000, Limit.SERVER),
                        new Bisection.Step("vertx", "timer", 1500, 1000, 2000, Limit.GENERATOR)),
                steps,
                "6,600-6,900 is within 10 %; the machine's limit, a pair that held throughout, or held nowhere: no"
                        + " interval");
        assertEquals(
                "vertx/timer at 1,500 (held 1,000, not held 2,000, the generator's limit)",
                steps.get(1).describe(),
                "a generator-limited interval is narrowed in too, and labelled");
        assertEquals(
                List.of(steps.get(1)),
                Bisection.next(pairs, 0.10, Set.of(steps.get(0))),
                "a step tried before (its run lost) is not taken again");
        assertEquals(
                List.of(), Bisection.next(pairs, 1.0, Set.of()), "within 100 %: the grid's 2x gaps are narrow enough");
    }

    @Test
    void aBandHeldInSomeRoundsOnlyIsNarrowedInOnFromBothEdgesTheWiderFirst() {
        SweepPair banded = new SweepPair(
                "vertx",
                "timer",
                null,
                5000,
                10000,
                Limit.SERVER,
                "server",
                10000,
                null,
                null,
                null,
                2000,
                null,
                null,
                null,
                null,
                List.of(new SweepPair.Share(8000, 4, 6), new SweepPair.Share(12000, 1, 3)),
                null);
        List<Bisection.Step> first = Bisection.next(List.of(banded), 0.10, Set.of());
        assertEquals(1, first.size(), "one step a pair at a time");
        int low = first.getFirst().concurrency();
        assertTrue(low > 5000 && low < 8000, "5,000-8,000 (60 %) before 8,000-10,000 (25 %): " + low);
        List<Bisection.Step> second = Bisection.next(List.of(banded), 0.10, Set.copyOf(first));
        int high = second.getFirst().concurrency();
        assertTrue(high > 8000 && high < 10000, "then the band's upper edge, 12,000 above the end aside: " + high);
    }

    @Test
    void narrowEnoughIsWithinTheResolutionOfTheLastHeldOrNothingLeftBetween() {
        assertTrue(Bisection.narrowEnough(6600, 6900, 0.10));
        assertTrue(Bisection.narrowEnough(1000, 1100, 0.10), "exactly 10 %");
        assertEquals(false, Bisection.narrowEnough(1000, 1110, 0.10));
        assertTrue(Bisection.narrowEnough(10, 11, 0.01), "no whole number between");
    }

    /** A server that holds up to {@code limit}: the steps narrow in on it, within the steps counted beforehand. */
    @Test
    void theStepsNarrowInOnTheBreakingPointWithinTheResolutionInAboutLog2Steps() {
        for (int limit : List.of(5001, 5600, 6873, 8000, 9999)) {
            IntPredicate holds = c -> c <= limit;
            int held = 5000;
            int notHeld = 10000;
            int most = Bisection.stepsLeft(held, notHeld, 0.10);
            int steps = 0;
            Set<Bisection.Step> tried = new HashSet<>();
            while (true) {
                List<Bisection.Step> next =
                        Bisection.next(List.of(pair("undertow", "blocking", held, notHeld, "server")), 0.10, tried);
                if (next.isEmpty()) {
                    break;
                }
                tried.addAll(next);
                steps++;
                int c = next.getFirst().concurrency();
                assertTrue(c > held && c < notHeld, c + " inside " + held + "-" + notHeld);
                if (holds.test(c)) {
                    held = c;
                } else {
                    notHeld = c;
                }
            }
            assertTrue(held <= limit && limit < notHeld, limit + " in " + held + "-" + notHeld);
            assertTrue((notHeld - held) <= 0.10 * held, held + "-" + notHeld + " within 10 %");
            assertTrue(steps <= most && most <= 5, steps + " steps, " + most + " at most");
        }
    }

    @Test
    void theMostStepsBeforeTheGridIsTheWidestGapsAndAfterItEachPairsOwn() {
        assertEquals(
                Bisection.stepsLeft(1000, 5000, 0.10),
                Bisection.stepsLeftInGrid(List.of(10000, 5000, 1000, 500, 250), 0.10),
                "the widest gap, 1,000-5,000, whatever the order given");
        assertEquals(0, Bisection.stepsLeftInGrid(List.of(1000), 0.10), "one point: nothing to narrow");
        assertEquals(
                Bisection.stepsLeft(5000, 10000, 0.10) + Bisection.stepsLeft(1000, 2000, 0.10),
                Bisection.stepsLeft(
                        List.of(
                                pair("undertow", "blocking", 5000, 10000, "server"),
                                pair("vertx", "timer", 1000, 2000, "generator"),
                                pair("undertow", "timer", 19000, null, "machine")),
                        0.10));
        assertTrue(
                Bisection.stepsLeft(5000, 10000, 0.25) < Bisection.stepsLeft(5000, 10000, 0.10),
                "a coarser resolution, fewer");
    }

    @Test
    void aStepGoesToThePlannedServerNamingItsStrategyElseToTheServersDefault() {
        Bisection.Step step = new Bisection.Step("vertx", "timer", 8000, 5000, 10000, Limit.SERVER);
        assertEquals(
                Optional.of(new Planned("vertx", null)),
                step.plannedIn(List.of(new Planned("undertow", null), new Planned("vertx", null))),
                "--strategies default or --targets: the runs carry the strategy the server reported");
        assertEquals(
                Optional.of(new Planned("vertx", "timer")),
                step.plannedIn(List.of(new Planned("vertx", null), new Planned("vertx", "timer"))),
                "named, it goes to that one only, not to both");
        assertEquals(
                Optional.empty(),
                step.plannedIn(List.of(new Planned("vertx", "blocking"), new Planned("undertow", null))));
    }

    @Test
    void onceNarrowedInEachPairsHeldEndsAndThenItsNotHeldEndsAreMeasuredAgain() {
        List<Bisection.Step> ends = Bisection.ends(List.of(
                pair("undertow", "blocking", 6600, 6900, "server"),
                pair("undertow", "virtual", 10000, null, "none"),
                pair("vertx", "timer", 9500, 10000, "generator")));
        assertEquals(
                List.of(6600, 9500, 6900, 10000),
                ends.stream().map(Bisection.Step::concurrency).toList());
        assertEquals(6600, ends.get(2).heldAt(), "the widened end still knows its pair's last held");
    }

    @Test
    void onlyTheEndsNotYetMeasuredAgainAreMeasuredAgainSoAWidenedIntervalMeasuresItsNewEndAlone() {
        SweepPair.Reading held = new SweepPair.Reading(5000, Run.Phase.GRID, 0.99, 0, 3, true);
        SweepPair.Reading notHeld = new SweepPair.Reading(11000, Run.Phase.NARROWING, 0.8, 0, 3, false);
        SweepPair.Reading notHeldAgain = new SweepPair.Reading(11000, Run.Phase.ENDS, 0.81, 0, 3, false);
        SweepPair widened = pair(
                "vertx", "timer", 5000, 11000, "server", new SweepPair.Ends(held, null, notHeld, notHeldAgain, null));
        List<Bisection.Step> ends = Bisection.ends(List.of(widened));
        assertEquals(
                List.of(5000), ends.stream().map(Bisection.Step::concurrency).toList());
        assertEquals(5000, ends.getFirst().heldAt());
    }

    /**
     * A server holding up to {@code limit} read through noise: a concurrency it holds reads "not held" one time in five
     * (a noisy round), one up to 15 % above its limit reads "held" one time in five. The narrowing alone can be misled
     * (a noisy "not held" caps every later step); measuring the ends again, and widening past an end read otherwise the
     * second time, gives an interval whose ends each read alike twice: it contains the limit unless the same end read
     * wrong both times (one time in 25), and a reading that disagreed is never hidden.
     */
    @Test
    void withANoisyNonMonotoneServerTheEndsMeasuredAgainWidenTheIntervalUntilItContainsTheLimit() {
        int limit = 6873;
        int misled = 0;
        int widened = 0;
        int unconfirmed = 0;
        for (long seed = 0; seed < 200; seed++) {
            Random noise = new Random(seed);
            Map<Integer, Integer> wrong = new HashMap<>();
            List<Run> runs = new ArrayList<>();
            java.util.function.BiConsumer<Integer, Run.Phase> measure = (c, phase) -> {
                boolean holds = c <= limit;
                boolean flipped = holds ? noise.nextDouble() < 0.2 : c <= 1.15 * limit && noise.nextDouble() < 0.2;
                if (flipped) {
                    wrong.merge(c, 1, Integer::sum);
                }
                runs.add(run(c, holds != flipped, phase));
            };
            List.of(2000, 5000, 10000, 20000).forEach(c -> measure.accept(c, Run.Phase.GRID));
            Set<Bisection.Step> tried = new HashSet<>();
            int steps = 0;
            while (true) {
                List<Bisection.Step> next = Bisection.next(SweepPairs.of(runs, List.of()), 0.10, tried);
                if (next.isEmpty()) {
                    break;
                }
                tried.addAll(next);
                steps++;
                next.forEach(step -> measure.accept(step.concurrency(), Run.Phase.NARROWING));
            }
            assertTrue(steps <= 8, steps + " steps");
            SweepPair narrowed = SweepPairs.of(runs, List.of()).getFirst();
            if (narrowed.heldAt() == null || narrowed.notHeldAt() == null) {
                continue; // every point read short, or a noisy "held" at the top: no interval to measure again
            }
            assertTrue(Bisection.narrowEnough(narrowed.heldAt(), narrowed.notHeldAt(), 0.10), narrowed.toString());
            if (narrowed.heldAt() > limit || narrowed.notHeldAt() <= limit) {
                misled++;
            }
            int passes = 0;
            for (List<Bisection.Step> ends = Bisection.ends(List.of(narrowed));
                    !ends.isEmpty() && passes < SweepNarrowing.END_PASSES;
                    ends = Bisection.ends(SweepPairs.of(runs, List.of()))) {
                passes++;
                ends.forEach(step -> measure.accept(step.concurrency(), Run.Phase.ENDS));
            }
            SweepPair pair = SweepPairs.of(runs, List.of()).getFirst();
            if (pair.ends() == null || !pair.ends().agree()) {
                unconfirmed++;
                assertEquals(null, pair.breakingPoint(), "seed " + seed + ": no number unconfirmed: " + pair.reading());
                continue;
            }
            boolean contains = pair.heldAt() <= limit && limit < pair.notHeldAt();
            boolean wrongTwice =
                    wrong.getOrDefault(pair.heldAt(), 0) >= 2 || wrong.getOrDefault(pair.notHeldAt(), 0) >= 2;
            assertTrue(
                    contains || wrongTwice,
                    "seed " + seed + ": " + pair.heldAt() + "-" + pair.notHeldAt() + " misses " + limit + ": "
                            + pair.ends().describe());
            if (pair.heldAt() < narrowed.heldAt() || pair.notHeldAt() > narrowed.notHeldAt()) {
                widened++;
                assertTrue(pair.nonMonotone(), "the reading it widened past is shown: " + pair.reading());
            }
            assertTrue(pair.breakingPoint() != null, "seed " + seed + ": " + pair.reading());
        }
        assertTrue(
                misled >= 10 && widened >= misled && unconfirmed <= 10,
                "the noise misled the narrowing " + misled + " times, the ends widened " + widened + ", " + unconfirmed
                        + " left unconfirmed after " + SweepNarrowing.END_PASSES + " passes");
    }

    /** One round at {@code concurrency}: held (99 % of the bound) or not (80 %, the server's CPUs full). */
    private static Run run(int concurrency, boolean held, Run.Phase phase) {
        double bound = 5.0 * concurrency;
        double ratio = held ? 0.99 : 0.80;
        return ResultsFixtures.flat(
                        "undertow",
                        "blocking",
                        concurrency,
                        "embedded",
                        0,
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
