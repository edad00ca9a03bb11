package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.report.SweepPair;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/** Where the sweep narrows in after its grid, and when it stops. */
class BisectionTest {

    private static SweepPair pair(String server, String strategy, Integer heldAt, Integer notHeldAt, String limit) {
        return new SweepPair(server, strategy, null, heldAt, notHeldAt, limit, limit, notHeldAt, null, null, null, 2000, null,
                null, null);
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
        assertEquals(List.of(new Bisection.Step("undertow", "blocking", 8000, 5000, 10000, "server"),
                new Bisection.Step("vertx", "timer", 1500, 1000, 2000, "generator")), steps,
                "6,600-6,900 is within 10 %; the machine's limit, a pair that held throughout, or held nowhere: no interval");
        assertEquals("vertx/timer at 1,500 (held 1,000, not held 2,000, the generator's limit)", steps.get(1).describe(),
                "a generator-limited interval is narrowed in too, and labelled");
        assertEquals(List.of(steps.get(1)), Bisection.next(pairs, 0.10, Set.of(steps.get(0))),
                "a step tried before (its run lost) is not taken again");
        assertEquals(List.of(), Bisection.next(pairs, 1.0, Set.of()), "within 100 %: the grid's 2x gaps are narrow enough");
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
                List<Bisection.Step> next = Bisection.next(List.of(pair("undertow", "blocking", held, notHeld, "server")), 0.10, tried);
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
        assertEquals(Bisection.stepsLeft(1000, 5000, 0.10), Bisection.stepsLeftInGrid(List.of(10000, 5000, 1000, 500, 250), 0.10),
                "the widest gap, 1,000-5,000, whatever the order given");
        assertEquals(0, Bisection.stepsLeftInGrid(List.of(1000), 0.10), "one point: nothing to narrow");
        assertEquals(Bisection.stepsLeft(5000, 10000, 0.10) + Bisection.stepsLeft(1000, 2000, 0.10), Bisection.stepsLeft(List.of(
                pair("undertow", "blocking", 5000, 10000, "server"), pair("vertx", "timer", 1000, 2000, "generator"),
                pair("undertow", "timer", 19000, null, "machine")), 0.10));
        assertTrue(Bisection.stepsLeft(5000, 10000, 0.25) < Bisection.stepsLeft(5000, 10000, 0.10), "a coarser resolution, fewer");
    }
}
