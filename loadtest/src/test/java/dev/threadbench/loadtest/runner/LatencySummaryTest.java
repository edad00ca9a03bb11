package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.model.LatencySummary;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

    /** HdrHistogram with 3 significant digits: values are exact to within 0.1%. */
    private static final double PRECISION = 0.001;

    @Test
    void percentilesMeanAndSampleStdDevOfOneToAThousandMilliseconds() {
        Histogram micros = Tally.newHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            micros.recordValue(ms * 1000L);
        }
        LatencySummary s = LatencySummary.of(micros);
        assertEquals(1000, s.count());
        assertClose(500, s.p50());
        assertClose(900, s.p90());
        assertClose(990, s.p99());
        assertClose(995, s.p995());
        assertClose(999, s.p999());
        assertClose(1000, s.max());
        assertClose(500.5, s.mean());
        // sample standard deviation of 1..1000: sqrt(sum((i - 500.5)^2) / 999) = 288.8194
        assertClose(288.8194, s.sampleStdDev());
    }

    @Test
    void theWorkloadsShapeNineFastOneHeld() {
        Histogram micros = Tally.newHistogram();
        for (int i = 0; i < 9000; i++) {
            micros.recordValue(800); // 0.8 ms
        }
        for (int i = 0; i < 1000; i++) {
            micros.recordValue(2_001_000); // 2001 ms
        }
        LatencySummary s = LatencySummary.of(micros);
        assertClose(0.8, s.p50());
        assertClose(0.8, s.p90());
        assertClose(2001, s.p99());
        assertClose(0.9 * 0.8 + 0.1 * 2001, s.mean());
    }

    @Test
    void noRequestIsTooSlowToRecord() {
        Tally tally = new Tally();
        tally.recordMeasured(2 * 3_600_000_000L, null); // two hours: clamped to the hour, not an exception
        tally.recordMeasured(0, FailureCause.REFUSED);
        assertEquals(2, tally.latencyMicros.getTotalCount());
        assertEquals(1, tally.measuredSuccesses);
        assertEquals(1, tally.failures().get(FailureCause.REFUSED));
        assertClose(3_600_000, LatencySummary.of(tally.latencyMicros).max());
    }

    @Test
    void theCurveRunsFromTheMedianRegionToTheMaximumInOrder() {
        Histogram micros = Tally.newHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            micros.recordValue(ms * 1000L);
        }
        List<LatencySummary.Point> curve = LatencySummary.curve(micros);
        assertTrue(curve.size() > 20, "dense towards the tail: " + curve.size());
        for (int i = 1; i < curve.size(); i++) {
            assertTrue(curve.get(i).percentile() > curve.get(i - 1).percentile());
            assertTrue(curve.get(i).latencyMs() >= curve.get(i - 1).latencyMs());
        }
        assertEquals(100.0, curve.getLast().percentile());
        assertClose(1000, curve.getLast().latencyMs());
        assertEquals(List.of(), LatencySummary.curve(Tally.newHistogram()));
    }

    private static void assertClose(double expected, double actual) {
        assertEquals(
                expected, actual, Math.max(expected * PRECISION, 0.001), "expected ~" + expected + " got " + actual);
    }
}
