package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Memory per 1,000 connections, CPU at 2000 and breaking points, from a sweep's cells. */
class SweepPairTest {

    private static List<SweepPair> pairs(List<Results.Skipped> skipped) {
        Results results = SweepFixtures.sweep(skipped);
        return SweepPair.of(Cell.of(results.runs()), results.skipped());
    }

    @Test
    void theSlopeIsTheLeastSquaresLine() {
        assertEquals(2.0, SweepPair.slope(List.of(new double[] {1, 3}, new double[] {2, 5}, new double[] {3, 7})));
        assertEquals(0.4, SweepPair.slope(List.of(new double[] {0, 0}, new double[] {2, 2}, new double[] {4, 1}, new double[] {6, 3})),
                1e-9, "a noisy line: the least-squares fit, not the end points");
        assertNull(SweepPair.slope(List.of(new double[] {1000, 3})));
        assertNull(SweepPair.slope(List.of(new double[] {1000, 3}, new double[] {1000, 5})));
    }

    @Test
    void eachPairGetsItsMemoryPerThousandConnectionsAndCpuAt2000() {
        List<SweepPair> pairs = pairs(List.of());
        assertEquals(List.of("undertow/blocking", "undertow/timer", "vertx/timer"), pairs.stream().map(SweepPair::label).toList());
        SweepPair blocking = pairs.getFirst();
        assertEquals(0.5, blocking.heapMbPer1000());
        assertEquals(100.0, blocking.rssMbPer1000());
        assertEquals(2000, blocking.cpuConcurrency());
        assertEquals(200.0, blocking.cpuMicrosPerRequest().median(), 1e-9);
        assertEquals(160.0, blocking.cpuUserMicrosPerRequest().median(), 1e-9);
        assertEquals(20.0, pairs.get(1).rssMbPer1000());
    }

    @Test
    void theBreakingPointIsTheLargestConcurrencyHeldAndSaysWhatStoppedIt() {
        List<SweepPair> pairs = pairs(List.of());
        SweepPair blocking = pairs.get(0);
        assertEquals(1000, blocking.heldAt());
        assertEquals(2000, blocking.notHeldAt());
        assertEquals(1500, blocking.breakingPoint(), "between the two, readable");
        assertEquals("server", blocking.limit());
        assertEquals(2000, blocking.limitAt());
        assertEquals("the server's limit: at 2,000 80.0 % of the bound, 0 failed", blocking.limitDetail());
        assertEquals("1,500 (held 1,000, not held 2,000)", blocking.reading());
        assertEquals(2000, pairs.get(1).heldAt());
        assertNull(pairs.get(1).notHeldAt());
        assertNull(pairs.get(1).breakingPoint());
        assertEquals("none", pairs.get(1).limit());
        assertEquals("not found: held at every concurrency, up to 2,000", pairs.get(1).reading());
        SweepPair vertx = pairs.get(2);
        assertEquals(1000, vertx.heldAt());
        assertEquals(2000, vertx.notHeldAt());
        assertNull(vertx.breakingPoint(), "the generator's limit is never the server's breaking point");
        assertEquals("generator", vertx.limit());
        assertTrue(vertx.limitDetail().startsWith("the generator's limit: at 2,000 it was generator-bound in 3/3 rounds"),
                vertx.limitDetail());
        assertEquals("not found: generator limit at 2,000 (held 1,000)", vertx.reading());
    }

    @Test
    void aServerAtFullCpuInMostRoundsIsTheLimitEvenWhereTheGeneratorWasOnceToo() {
        List<Results.Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : SweepFixtures.CONCURRENCIES) {
                boolean top = c == 2000;
                runs.add(SweepFixtures.run("undertow", "blocking", c, round,
                        new SweepFixtures.Point(top ? 0.7 : 0.99, 0, 100, 10, 10, top && round == 0, top)));
            }
        }
        SweepPair pair = SweepPair.of(Cell.of(runs), List.of()).getFirst();
        assertEquals(1000, pair.heldAt());
        assertEquals(1500, pair.breakingPoint());
        assertEquals("server", pair.limit());
        assertTrue(pair.limitDetail().endsWith("its CPUs used to the full in 3/3 rounds"), pair.limitDetail());
    }

    @Test
    void aConcurrencyTheMachineCouldNotHoldIsTheLimitOfAPairThatHeldEveryOther() {
        SweepPair timer = pairs(List.of(new Results.Skipped(5000, "the descriptor limit (ulimit -n) is 4,096"))).get(1);
        assertEquals(2000, timer.heldAt());
        assertNull(timer.breakingPoint());
        assertEquals("machine", timer.limit());
        assertEquals(5000, timer.limitAt());
        assertEquals("the machine's limit: 5,000 not run: the descriptor limit (ulimit -n) is 4,096", timer.limitDetail());
        assertEquals("not found: machine limit at 5,000 (held 2,000)", timer.reading());
    }

    @Test
    void aLowerConcurrencyThatFellShortDoesNotMoveTheBreakingPointButIsNamed() {
        List<Results.Run> runs = SweepFixtures.pair("vertx", "virtual",
                c -> new SweepFixtures.Point(c == 500 ? 0.94 : 0.99, 0, 100, 10, 10, false));
        SweepPair pair = SweepPair.of(Cell.of(runs), List.of()).getFirst();
        assertEquals(2000, pair.heldAt());
        assertEquals("none", pair.limit());
        assertEquals("held at the largest swept concurrency, 2,000", pair.limitDetail());
        assertEquals("500 (94.0 % of the bound, 0 failed)", pair.shortBelow());
        assertEquals("vertx/virtual holds the bound (>= 95 %, no failures) up to the largest swept concurrency, 2,000 (short of it"
                + " below, at 500 (94.0 % of the bound, 0 failed)).", SweepVerdict.holding(pair));
    }

    @Test
    void failuresBreakEvenAtTheBound() {
        Cell failing = Cell.of(List.of(SweepFixtures.run("vertx", "virtual", 500, 0,
                new SweepFixtures.Point(1.0, 3, 100, 10, 10, false)))).getFirst();
        assertEquals(false, SweepPair.holds(failing));
    }

    @Test
    void narrowedInTheBreakingPointIsANumberBetweenTheLastHeldAndTheFirstNotHeld() {
        List<Results.Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : List.of(5000, 10000, 7500, 6300, 6900, 6600)) {
                runs.add(SweepFixtures.run("undertow", "blocking", c, round,
                        new SweepFixtures.Point(c <= 6600 ? 0.99 : 0.8, 0, 100, 10, 10, false, c > 6600)));
            }
        }
        SweepPair pair = SweepPair.of(Cell.of(runs), List.of()).getFirst();
        assertEquals(6600, pair.heldAt());
        assertEquals(6900, pair.notHeldAt());
        assertEquals(6800, pair.breakingPoint());
        assertEquals("6,800 (held 6,600, not held 6,900)", pair.reading());
        assertEquals(300 / 6600.0, pair.interval(), 1e-9);
        assertTrue(pair.serverLimited());
    }

    @Test
    void heldAtNoneIsBelowTheLowest() {
        List<Results.Run> runs = SweepFixtures.pair("undertow", "blocking", c -> new SweepFixtures.Point(0.5, 0, 100, 10, 10, false));
        SweepPair pair = SweepPair.of(Cell.of(runs), List.of()).getFirst();
        assertNull(pair.heldAt());
        assertEquals(250, pair.notHeldAt());
        assertNull(pair.breakingPoint());
        assertEquals("below 250 (not held there)", pair.reading());
    }

    @Test
    void readableNumbersBetweenTwoConcurrenciesStayInTheMiddleThird() {
        assertEquals(8000, ReadableNumber.between(5000, 10000));
        assertEquals(1500, ReadableNumber.between(1000, 2000));
        assertEquals(800, ReadableNumber.between(500, 1000));
        assertEquals(6800, ReadableNumber.between(6600, 6900));
        assertEquals(1050, ReadableNumber.between(1000, 1110));
        assertEquals(11, ReadableNumber.between(10, 12));
        assertNull(ReadableNumber.between(10, 11), "nothing whole between");
        assertEquals("10", ReadableNumber.percent(0.1));
        assertEquals("2.5", ReadableNumber.percent(0.025));
    }
}
