package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.plan.PlanParser;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On outputs of the real drill 0.9.0 (stdout and stderr together, as the engine reads them), captured with
 * {@code drill --benchmark PLAN --stats --quiet [--timeout 3] [--nanosec]}: against the Undertow server at
 * 20 connections, against a closed port, against a server answering after 4.5 s, and with a missing plan.
 */
class DrillOutputTest {

    static final String HISTOGRAM_PANIC_LINE =
            "drill exited with status 101 and no summary: it panicked on a request slower"
                    + " than its --stats histogram holds (about 4.19 s in drill 0.8.x and 0.9.0; a timed-out request"
                    + " counts at the"
                    + " timeout); a --timeout of 3 s or less keeps it in range";

    @Test
    void theGlobalSummaryNotTheStepSection() throws IOException {
        DrillOutput drill = DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-c20.txt"), 0);
        assertEquals(0.8, drill.durationSeconds());
        assertEquals(400, drill.totalRequests());
        assertEquals(400, drill.successfulRequests());
        assertEquals(0, drill.failedRequests());
        assertEquals(497.35, drill.requestsPerSecond());
        assertEquals(2.0, drill.medianMs());
        assertEquals(31.0, drill.averageMs());
        assertEquals(66.0, drill.stdDevMs());
        assertEquals(224.0, drill.p99Ms());
        assertEquals(240.0, drill.p995Ms());
        assertEquals(342.0, drill.p999Ms());
        Outcome outcome = DrillEngine.outcome(drill, 0.4, List.of());
        assertEquals(400, outcome.window().requests());
        assertEquals(0, outcome.window().failed().total());
        assertNull(outcome.latency().latencyMs().p90(), "drill has no p90");
        assertEquals(224.0, outcome.latency().latencyMs().p99());
    }

    @Test
    void coloursAndNanoseconds() throws IOException {
        DrillOutput drill = DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-c20-color-nanosec.txt"), 0);
        assertEquals(0.5, drill.durationSeconds());
        assertEquals(400, drill.totalRequests());
        assertEquals(815.35, drill.requestsPerSecond());
        assertEquals(0.747, drill.medianMs(), 1e-9);
        assertEquals(205.823, drill.p99Ms(), 1e-9);
        assertEquals(210.943, drill.p999Ms(), 1e-9);
    }

    @Test
    void refusedConnectionsAreFailedRequestsAndDrillStillExits0() throws IOException {
        DrillOutput drill = DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-refused.txt"), 0);
        assertEquals(20, drill.totalRequests());
        assertEquals(0, drill.successfulRequests());
        assertEquals(20, drill.failedRequests());
        Outcome outcome = DrillEngine.outcome(drill, 0.01, List.of());
        assertEquals(20, outcome.window().failed().other(), "drill does not say why a request failed");
        assertEquals(20, outcome.answers().unansweredAllowance());
    }

    @Test
    void aTimedOutRequestIsRecordedAtTheTimeoutSoTimeout3KeepsTheSummary() throws IOException {
        // the server answered after 4.5 s; drill gave up at --timeout 3
        DrillOutput drill = DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-timeouts.txt"), 0);
        assertEquals(2, drill.failedRequests());
        assertEquals(3015.0, drill.medianMs());
        assertEquals(3015.0, drill.p999Ms());
    }

    @Test
    void theHistogramPanicIsOneLineCauseNotAParseError() throws IOException {
        // the same server, drill's default --timeout (10 s): the 4.5 s answers are out of the histogram's range
        RunFailure e = assertThrows(
                RunFailure.class, () -> DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-panic.txt"), 101));
        assertEquals(HISTOGRAM_PANIC_LINE, e.getMessage());
    }

    @Test
    void theHistogramPanicAsNewerRustPrintsIt() {
        // from fcsonline/drill issue #216: drill 0.9.0 from crates.io, built with a current rustc
        String output = """
                Fetch root                http://pkgx.sh/ 200 OK 5332ms

                thread 'main' (6090) panicked at /home/builder/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/hdrhistogram-7.5.4/src/lib.rs:1864:28:
                called `Result::unwrap()` on an `Err` value: ValueOutOfRangeResizeDisabled
                note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
                """;
        assertEquals(
                HISTOGRAM_PANIC_LINE,
                assertThrows(RunFailure.class, () -> DrillOutput.of(output, 101))
                        .getMessage());
    }

    @Test
    void anotherPanicIsNamedByItsOwnLine() throws IOException {
        RunFailure e = assertThrows(
                RunFailure.class, () -> DrillOutput.of(WrkOutputTest.sample("drill-0.9.0-missing-plan.txt"), 101));
        assertEquals(
                "drill exited with status 101: thread 'main' panicked at 'couldn't open /no/such.yml: No such file or"
                        + " directory (os error 2)', src/reader.rs:13:17",
                e.getMessage());
    }

    @Test
    void noSummaryAfterExit0IsAParseError() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> DrillOutput.of("Concurrency 20\n", 0));
        assertEquals("not drill --stats output: no 'Time taken for tests' line", e.getMessage());
    }

    @Test
    void delaysDrillCannotMeasureUnderItsTimeoutAreRefusedBeforeAnyRun() {
        DrillEngine engine = new DrillEngine("drill");
        assertDoesNotThrow(() -> engine.checkWorkload(10, 2500));
        assertDoesNotThrow(() -> engine.checkWorkload(0, 60_000), "no delayed requests");
        UsageException e = assertThrows(UsageException.class, () -> engine.checkWorkload(10, 2501));
        assertEquals(
                "--engine drill: --delay-ms 2501 is more than drill can measure: its --timeout is held at 3 s, as drill"
                        + " 0.8.x and 0.9.0 lose their summary to a panic on any request over about 4.19 s; use"
                        + " --delay-ms 2500 or less,"
                        + " or another engine",
                e.getMessage());
    }

    @Test
    void theGeneratedPlanIsOneThisProjectAndDrillBothRead() {
        String yaml = DrillEngine.plan(URI.create("http://127.0.0.1:8081/"), 2000, 1_000_000, 2);
        Plan plan = PlanParser.parse(yaml, "generated.yml");
        assertEquals(2000, plan.concurrency());
        assertEquals(1_000_000, plan.iterations());
        assertEquals(
                URI.create("http://127.0.0.1:8081/"), plan.steps().getFirst().url());
    }
}
