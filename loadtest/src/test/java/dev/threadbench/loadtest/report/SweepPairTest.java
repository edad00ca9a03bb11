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
        assertEquals(1000, blocking.breakingPoint());
        assertEquals("server", blocking.limit());
        assertEquals("the server's limit: at 2,000 80.0 % of the bound, 0 failed", blocking.limitDetail());
        assertEquals(2000, pairs.get(1).breakingPoint());
        assertEquals("none", pairs.get(1).limit());
        SweepPair vertx = pairs.get(2);
        assertEquals(1000, vertx.breakingPoint());
        assertEquals("generator", vertx.limit());
        assertTrue(vertx.limitDetail().startsWith("the generator's limit: at 2,000 it was generator-bound in 3/3 rounds"),
                vertx.limitDetail());
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
        assertEquals(1000, pair.breakingPoint());
        assertEquals("server", pair.limit());
        assertTrue(pair.limitDetail().endsWith("its CPUs used to the full in 3/3 rounds"), pair.limitDetail());
    }

    @Test
    void aConcurrencyTheMachineCouldNotHoldIsTheLimitOfAPairThatHeldEveryOther() {
        SweepPair timer = pairs(List.of(new Results.Skipped(5000, "the descriptor limit (ulimit -n) is 4,096"))).get(1);
        assertEquals(2000, timer.breakingPoint());
        assertEquals("machine", timer.limit());
        assertEquals("the machine's limit: 5,000 not run: the descriptor limit (ulimit -n) is 4,096", timer.limitDetail());
    }

    @Test
    void aLowerConcurrencyThatFellShortDoesNotMoveTheBreakingPointButIsNamed() {
        List<Results.Run> runs = SweepFixtures.pair("vertx", "virtual",
                c -> new SweepFixtures.Point(c == 500 ? 0.94 : 0.99, 0, 100, 10, 10, false));
        SweepPair pair = SweepPair.of(Cell.of(runs), List.of()).getFirst();
        assertEquals(2000, pair.breakingPoint());
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
}
