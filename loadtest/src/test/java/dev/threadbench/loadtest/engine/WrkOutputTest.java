package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.report.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** On wrk 4.1.0's real output, captured here (src/test/resources/samples). */
class WrkOutputTest {

    static String sample(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/samples", name));
    }

    @Test
    void summaryDistributionAndScriptPercentiles() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c200-d5s-script.txt"));
        assertEquals(4000, wrk.requests());
        assertEquals(5.04, wrk.durationSeconds(), 1e-9);
        assertEquals(793.75, wrk.requestsPerSecond(), 1e-9);
        assertEquals(440.33, wrk.latencyMeanMs(), 1e-9);
        assertEquals(2970.0, wrk.latencyMaxMs(), 1e-9);
        assertEquals(28.88, wrk.p50Ms(), 1e-9);
        assertEquals(755.40, wrk.p75Ms(), 1e-9);
        assertEquals(1530.0, wrk.p90Ms(), 1e-9);
        assertEquals(2360.0, wrk.p99Ms(), 1e-9);
        assertEquals(2938.674, wrk.p999Ms(), 1e-9);
        assertEquals(13, wrk.percentiles().size());
        assertEquals(100.0, wrk.percentiles().getLast().percentile());
        assertEquals(0, wrk.non2xx() + wrk.connectErrors() + wrk.readErrors() + wrk.writeErrors() + wrk.timeouts());
    }

    @Test
    void non2xxAnswersAreFailures() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c50-non2xx.txt"));
        assertEquals(53100, wrk.requests());
        assertEquals(53100, wrk.non2xx());
        assertNull(wrk.p999Ms(), "no script, no 99.9th percentile");
        Outcome outcome = WrkEngine.outcome(wrk, 1.5, 0, 50, new Engine.Timing(0, 0, 3, null, 1, 0));
        assertEquals(new Results.Failed(53100, 53100, 0, 0, 0, 0, 0), outcome.failed());
        assertEquals(1.5, outcome.clientCpuSeconds());
        assertEquals(2.52, outcome.latency().p50());
    }

    @Test
    void anIdleRunParsesToZeros() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c20-timeouts.txt"));
        assertEquals(0, wrk.requests());
        assertEquals(0.0, wrk.requestsPerSecond());
        assertEquals(0.0, wrk.p50Ms());
    }

    @Test
    void socketErrorsByKind() {
        WrkOutput wrk = WrkOutput.parse("""
                  10 requests in 1.00m, 1.00KB read
                  Socket errors: connect 3, read 2, write 1, timeout 4
                Requests/sec:      0.17
                    Latency     1.00h     0.00us   1.50h    0.00%
                """);
        assertEquals(60.0, wrk.durationSeconds());
        assertEquals(3_600_000.0, wrk.latencyMeanMs());
        Outcome outcome = WrkEngine.outcome(wrk, 0, 5, 2, new Engine.Timing(0, 1, 60, null, 10, 0));
        assertEquals(new Results.Failed(10, 0, 4, 3, 3, 0, 0), outcome.failed());
        assertEquals(15, outcome.answered(), "warm-up answers count for reconciliation");
    }

    @Test
    void somethingElseIsRefusedWithItsFirstLine() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> WrkOutput.parse("unable to connect to 127.0.0.1:1\n"));
        assertEquals("not wrk output (no 'requests in', 'Requests/sec' or 'Latency' line): unable to connect to 127.0.0.1:1", e.getMessage());
    }

    @Test
    void theCommandIsTheBriefsOne() {
        assertEquals(java.util.List.of("wrk", "-t2", "-c2000", "-d55s", "--timeout", "10s", "--latency", "http://127.0.0.1:8081/"),
                WrkEngine.command("wrk", 2, 2000, 55, 10, null, java.net.URI.create("http://127.0.0.1:8081/")));
    }
}
