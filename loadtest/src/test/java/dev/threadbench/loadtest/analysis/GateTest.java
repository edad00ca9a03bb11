package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.BaselineFixtures;
import dev.threadbench.loadtest.model.Results;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GateTest {

    @Test
    void limitsAreReadAsRelativeWithASignAndPercentAndAbsoluteOtherwise() {
        assertEquals(new Gate("req/s<-2%", "req/s", false, -0.02, true), Gate.parse("req/s<-2%"));
        assertEquals(new Gate("p99>+5%", "p99", true, 0.05, true), Gate.parse(" p99 > +5% "));
        assertEquals(new Gate("of-bound<95%", "of-bound", false, 0.95, false), Gate.parse("of-bound<95%"));
        assertEquals(new Gate("p99>2100ms", "p99", true, 2100, false), Gate.parse("p99>2100ms"));
        assertEquals(new Gate("failed>0", "failed", true, 0, false), Gate.parse("failed>0"));
        assertEquals(new Gate("cpu>40us", "cpu", true, 40, false), Gate.parse("cpu>40us"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            req/s<=-2%   | --fail-if: 'req/s<=-2%': expected METRIC<LIMIT or METRIC>LIMIT, METRIC one of req/s, of-bound, p50, p99, p99.9, cpu, rss, failed (e.g. req/s<-2%, p99>+5%, of-bound<95%, p99>2100ms, failed>0)
            latency>+5%  | --fail-if: 'latency>+5%': unknown metric 'latency' (expected one of req/s, of-bound, p50, p99, p99.9, cpu, rss, failed)
            failed>+1%   | --fail-if: 'failed>+1%': give failed an absolute count (failed>0)
            p99>5%       | --fail-if: 'p99>5%': a limit against the baseline takes a sign and % (p99>+5%); an absolute one milliseconds (p99>2100ms)
            p99>-5       | --fail-if: 'p99>-5': a limit against the baseline takes a sign and % (p99>+5%); an absolute one milliseconds (p99>2100ms)
            of-bound<95  | --fail-if: 'of-bound<95': of-bound takes a share of the bound in % (of-bound<95%)
            cpu>40ms     | --fail-if: 'cpu>40ms': cpu takes microseconds per request (cpu>40us)
            """)
    void aBadLimitIsOneLine(String limit, String message) {
        assertEquals(
                message,
                assertThrows(UsageException.class, () -> Gate.parse(limit)).getMessage());
    }

    @Test
    void aRelativeLimitNeedsABaseline() {
        assertEquals(
                "--fail-if: 'req/s<-2%' is relative to a baseline: give --baseline PATH",
                assertThrows(
                                UsageException.class,
                                () -> Gate.requireBaseline(Gate.parse(List.of("failed>0", "req/s<-2%")), false))
                        .getMessage());
    }

    @Test
    void onlyASignificantDifferencePastTheLimitIsABreach() {
        Results baseline = BaselineFixtures.run(4, 9900, 2010, 30, 0.005, 1);
        Results slower = BaselineFixtures.run(4, 9900 * 0.95, 2010 * 1.03, 30, 0.005, 2);
        Results judged = slower.withBaseline(Baselines.of(baseline, slower, "base"));

        Gate.Check check = Gate.check(Gate.parse(List.of("req/s<-2%", "p99>+5%", "cpu>+10%")), judged);

        assertEquals(1, check.breaches().size(), check.toString());
        assertTrue(
                check.breaches().getFirst().startsWith("req/s<-2%: C=2000 undertow/blocking: req/s 9,4"),
                check.toString());
        assertEquals(List.of(), check.notes(), "p99 is 3 % up, under its limit");
        assertTrue(
                Gate.check(Gate.parse(List.of("req/s<-6%")), judged).breaches().isEmpty(), "5 % down is within 6 %");
    }

    @Test
    void aDifferencePastTheLimitThatTheRoundsCannotShowIsANoteNotABreach() {
        Results baseline = BaselineFixtures.run(3, 9900, 2010, 30, 0.005, 1);
        Results slower = BaselineFixtures.run(3, 9000, 2010, 30, 0.005, 2);
        Gate.Check check = Gate.check(
                Gate.parse(List.of("req/s<-2%")), slower.withBaseline(Baselines.of(baseline, slower, "base")));
        assertEquals(List.of(), check.breaches());
        assertEquals(1, check.notes().size());
        assertTrue(
                check.notes().getFirst().contains("past the limit but not counted: req/s 9,0"),
                check.notes().toString());
        assertTrue(
                check.notes().getFirst().contains("too few rounds to judge"),
                check.notes().toString());
    }

    @Test
    void absoluteLimitsApplyToEachCellsMedian() {
        Results run = BaselineFixtures.run(4, 9900, 2010, 30, 0.005, 1);
        assertEquals(
                List.of(),
                Gate.check(Gate.parse(List.of("of-bound<95%", "p99>2100ms", "failed>0", "cpu>40us")), run)
                        .breaches());
        Gate.Check check = Gate.check(Gate.parse(List.of("of-bound<99.5%", "p99>2000ms")), run);
        assertEquals(2, check.breaches().size(), check.toString());
        assertTrue(
                check.breaches().get(0).startsWith("of-bound<99.5%: C=2000 undertow/blocking: of bound 0.99"),
                check.toString());
        assertTrue(
                check.breaches().get(1).startsWith("p99>2000ms: C=2000 undertow/blocking: p99 ms 2,0"),
                check.toString());
    }
}
