package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.plan.PlanParser;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * On drill 0.9's --stats summary, written from its source (src/main.rs show_stats: labels padded to 25
 * columns, a section per step name before the global one, times rounded to whole ms or in ns).
 */
class DrillOutputTest {

    @Test
    void theGlobalSummaryNotTheStepSection() throws IOException {
        DrillOutput drill = DrillOutput.parse(WrkOutputTest.sample("drill-0.9-stats.txt"));
        assertEquals(212.4, drill.durationSeconds());
        assertEquals(1_000_000, drill.totalRequests());
        assertEquals(999_812, drill.successfulRequests());
        assertEquals(188, drill.failedRequests());
        assertEquals(4708.10, drill.requestsPerSecond());
        assertEquals(1.0, drill.medianMs());
        assertEquals(201.0, drill.averageMs());
        assertEquals(600.0, drill.stdDevMs());
        assertEquals(2003.0, drill.p99Ms());
        assertEquals(2004.0, drill.p995Ms());
        assertEquals(2011.0, drill.p999Ms());
        Outcome outcome = DrillEngine.outcome(drill, 12.5);
        assertEquals(188, outcome.failed().other());
        assertNull(outcome.latency().p90(), "drill has no p90");
        assertEquals(1_000_000, outcome.requests());
    }

    @Test
    void coloursAndNanoseconds() throws IOException {
        DrillOutput drill = DrillOutput.parse(WrkOutputTest.sample("drill-0.9-stats-color-nanosec.txt"));
        assertEquals(10.4, drill.durationSeconds());
        assertEquals(2000, drill.totalRequests());
        assertEquals(2, drill.failedRequests());
        assertEquals(192.31, drill.requestsPerSecond());
        assertEquals(0.812345, drill.medianMs(), 1e-9);
        assertEquals(2009.876543, drill.p999Ms(), 1e-9);
    }

    @Test
    void aPanicInsteadOfASummaryIsNotParsed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DrillOutput.parse(
                "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: ValueOutOfRangeResizeDisabled'\n"));
        assertEquals("not drill --stats output: no 'Time taken for tests' line", e.getMessage());
    }

    @Test
    void theGeneratedPlanIsOneThisProjectAndDrillBothRead() {
        String yaml = DrillEngine.plan(URI.create("http://127.0.0.1:8081/"), 2000, 1_000_000, 2);
        Plan plan = PlanParser.parse(yaml, "generated.yml");
        assertEquals(2000, plan.concurrency());
        assertEquals(1_000_000, plan.iterations());
        assertEquals(URI.create("http://127.0.0.1:8081/"), plan.steps().getFirst().url());
    }
}
