package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-second series: 1 s buckets per event loop, added second by second across loops and across agents. */
class SecondSeriesTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void eachSecondCountsWhatCompletedInItAndItsPercentilesAreOfAllLoopsTogether() {
        SecondBuckets fastLoop = new SecondBuckets();
        SecondBuckets slowLoop = new SecondBuckets();
        // second 0: 90 fast answers on one loop, 10 delayed ones on the other; second 1: nothing; second 2: 5, one
        // failed
        for (int i = 0; i < 90; i++) {
            fastLoop.record(i * SECOND / 100, 500, false);
        }
        for (int i = 0; i < 10; i++) {
            slowLoop.record(SECOND / 2 + i, 2_000_000, false);
        }
        for (int i = 0; i < 5; i++) {
            fastLoop.record(2 * SECOND + i, 700, i == 4);
        }
        SecondSeries series = SecondSeries.of(3.0, 5.0, List.of(fastLoop, slowLoop));
        List<SecondSeries.Second> seconds = series.seconds();
        assertEquals(3, seconds.size());
        assertEquals(100, seconds.get(0).requests());
        assertEquals(0.5, seconds.get(0).p50Ms(), 0.01, "the median is a fast answer");
        assertEquals(2000, seconds.get(0).p99Ms(), 20, "the delayed tenth sets the p99 of the merged second");
        assertEquals(0, seconds.get(1).requests(), "a second without an answer: a stall shows as a gap");
        assertNull(seconds.get(1).p99Ms());
        assertEquals(5, seconds.get(2).requests());
        assertEquals(1, seconds.get(2).failed());
        assertEquals(3.0, series.measureStartSecond());
        assertEquals(5.0, series.measureEndSecond());
    }

    @Test
    void theLatestWholeSecondIsTheNewestAnyLoopClosedWithEveryLoopThatClosedItAdded() {
        SecondBuckets one = new SecondBuckets();
        SecondBuckets other = new SecondBuckets();
        assertNull(SecondSeries.latest(
                List.of(one, other).stream().map(SecondBuckets::latest).toList()));
        for (int i = 0; i < 99; i++) {
            one.record(i * SECOND / 100, 500, false);
        }
        other.record(SECOND / 2, 2_000_000, false);
        one.record(SECOND + 1, 500, false); // closes second 0 on this loop only
        SecondSeries.Second alone = SecondSeries.latest(
                List.of(one, other).stream().map(SecondBuckets::latest).toList());
        assertEquals(0, alone.second());
        assertEquals(99, alone.requests(), "the other loop has not closed second 0 yet");
        other.record(SECOND + 2, 500, false);
        SecondSeries.Second both = SecondSeries.latest(
                List.of(one, other).stream().map(SecondBuckets::latest).toList());
        assertEquals(100, both.requests());
        assertEquals(2000, both.maxMs(), 20, "the other loop's delayed answer is in the merged second");
        assertEquals(0.5, both.p50Ms(), 0.01);
    }

    @Test
    void agentsSeriesAddUpSecondBySecond() {
        SecondBuckets a = new SecondBuckets();
        SecondBuckets b = new SecondBuckets();
        for (int i = 0; i < 80; i++) {
            a.record(i * SECOND / 40, 300, false); // 40 in second 0, 40 in second 1, in the order they came
        }
        for (int i = 0; i < 60; i++) {
            b.record(SECOND + i * SECOND / 60, 3_000, i < 2);
        }
        SecondSeries merged = SecondSeries.merge(
                List.of(SecondSeries.of(2.0, 4.0, List.of(a)), SecondSeries.of(2.0, 4.0, List.of(b))));
        List<SecondSeries.Second> seconds = merged.seconds();
        assertEquals(40, seconds.get(0).requests(), "only the first agent answered in second 0");
        assertEquals(100, seconds.get(1).requests());
        assertEquals(2, seconds.get(1).failed());
        assertEquals(
                3.0,
                seconds.get(1).p50Ms(),
                0.05,
                "60 of the 100 took 3 ms: the merged median is theirs, not an average");
        assertNull(
                SecondSeries.merge(java.util.Arrays.asList(SecondSeries.of(2.0, 4.0, List.of(a)), null)),
                "an agent without a series: none for the run");
    }

    @Test
    void aLongGapAndALateFirstAnswerAreCountedWhereTheyHappened() {
        SecondBuckets loop = new SecondBuckets();
        loop.record(70 * SECOND + 1, 1_000, false);
        List<SecondSeries.Second> seconds = SecondSeries.of(0, 0, List.of(loop)).seconds();
        assertEquals(71, seconds.size());
        assertTrue(seconds.subList(0, 70).stream().allMatch(s -> s.requests() == 0));
        assertEquals(1, seconds.get(70).requests());
    }
}
