package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.model.Results;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** On wrk 4.1.0's real output with loadtest's done() script, captured here (src/test/resources/samples). */
class WrkOutputTest {

    static String sample(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/samples", name));
    }

    @Test
    void summaryErrorsAndPercentilesAsWrkPrintsThem() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c200-d5s-script.txt"));
        assertEquals(3940, wrk.requests());
        assertEquals(5.08083, wrk.durationSeconds(), 1e-9);
        assertEquals(775.46, wrk.requestsPerSecond(), 0.005, "wrk's own Requests/sec line");
        assertEquals(434.811296, wrk.latencyMicros().mean() / 1000, 1e-9);
        assertEquals(3130195, wrk.latencyMicros().max());
        assertEquals(14.011, wrk.percentileMs(50), 1e-9);
        assertEquals(710.758, wrk.percentileMs(75), 1e-9);
        assertEquals(1483.527, wrk.percentileMs(90), 1e-9);
        assertEquals(2357.758, wrk.percentileMs(99), 1e-9);
        assertEquals(3053.703, wrk.percentileMs(99.9), 1e-9);
        assertEquals(13, wrk.curve().size());
        assertEquals(100.0, wrk.curve().getLast().percentile());
        assertEquals(new WrkOutput.Errors(0, 0, 0, 0, 0), wrk.errors());
    }

    @Test
    void non2xxAnswersAreFailures() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c50-non2xx.txt"));
        assertEquals(141714, wrk.requests());
        assertEquals(141714, wrk.errors().status());
        assertNull(wrk.percentileMs(99.95), "a percentile the script does not print");
        Outcome outcome = WrkEngine.outcome(wrk, new WrkEngine.Window(60_000, 1.5, 6.0), 50);
        assertEquals(
                new Results.Failed(141714, 141714, 0, 0, 0, 0, 0),
                outcome.window().failed());
        assertEquals(1.5, outcome.generatorCpuSeconds(), "wrk's CPU over the window");
        assertEquals(
                60_000,
                outcome.window().requests(),
                "the window's: the server's answers between its edges, not wrk's whole run");
        assertEquals(10_000.0, outcome.window().requestsPerSecond());
        assertEquals(6.0, outcome.window().durationSeconds());
        assertEquals(141714, outcome.answers().answered(), "wrk's whole run, to set against the server's count");
        assertEquals(0.693, outcome.latency().latencyMs().p50());
    }

    @Test
    void anIdleRunParsesToZeros() throws IOException {
        WrkOutput wrk = WrkOutput.parse(sample("wrk-c20-timeouts.txt"));
        assertEquals(0, wrk.requests());
        assertEquals(0.0, wrk.requestsPerSecond());
        assertEquals(0.0, wrk.percentileMs(50));
    }

    @Test
    void socketErrorsByKind() {
        WrkOutput wrk = WrkOutput.parse("""
                  10 requests in 1.00m, 1.00KB read
                {"durationMicros":60000000,"requests":10,"errors":{"connect":3,"read":2,"write":1,"status":0,"timeout":4},\
                "latencyMicros":{"mean":3600000000.000,"max":5400000000,"percentiles":[{"percentile":50,"micros":10}]}}
                """);
        assertEquals(60.0, wrk.durationSeconds());
        assertEquals(3_600_000.0, wrk.latencyMicros().mean() / 1000);
        Outcome outcome = WrkEngine.outcome(wrk, new WrkEngine.Window(8, 0, 1.0), 2);
        assertEquals(new Results.Failed(10, 0, 4, 3, 3, 0, 0), outcome.window().failed());
        assertEquals(
                10,
                outcome.answers().answered(),
                "one process: its answers, warm-up included, count for reconciliation");
        assertEquals(
                2 + 10,
                outcome.answers().unansweredAllowance(),
                "abandoned at its deadline, one per connection, and the socket failures");
    }

    @Test
    void somethingElseIsRefusedWithItsFirstLine() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> WrkOutput.parse("unable to connect to 127.0.0.1:1\n"));
        assertEquals(
                "not wrk output (no summary from loadtest's done() script): unable to connect to 127.0.0.1:1",
                e.getMessage());
    }

    @Test
    void theCommandIsTheBriefsOneWithTheScript() {
        assertEquals(
                List.of(
                        "wrk",
                        "-t2",
                        "-c2000",
                        "-d55s",
                        "--timeout",
                        "10s",
                        "--latency",
                        "-s",
                        "summary.lua",
                        "http://127.0.0.1:8081/"),
                WrkEngine.command(
                        "wrk", 2, 2000, 55, 10, Path.of("summary.lua"), URI.create("http://127.0.0.1:8081/")));
    }
}
