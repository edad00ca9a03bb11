package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.loadtest.StandInServer;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The real wrk (when installed) with loadtest's done() script, against a stand-in server. */
class WrkEngineTest {

    @Test
    void wrksOwnSummaryComesBackAsJson() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/wrk")), "wrk is not installed");
        try (StandInServer server = new StandInServer(10, 100)) {
            AtomicLong started = new AtomicLong();
            AtomicLong windowStart = new AtomicLong();
            AtomicLong requestsAtWindowStart = new AtomicLong();
            AtomicLong windowEnd = new AtomicLong();
            started.set(System.nanoTime());
            Outcome outcome = new WrkEngine("/usr/bin/wrk")
                    .run(
                            URI.create("http://127.0.0.1:" + server.port() + "/"),
                            4,
                            new Engine.Timing(0, 1, 2, null, 10, 0),
                            new LoadRunner.Phases() {
                                @Override
                                public void measureStarted() {
                                    windowStart.set(System.nanoTime());
                                    requestsAtWindowStart.set(server.requests());
                                }

                                @Override
                                public void measureEnded() {
                                    windowEnd.set(System.nanoTime());
                                }
                            });
            long finished = System.nanoTime();
            assertTrue(windowStart.get() - started.get() >= 1_000_000_000L, "the window after the 1 s warm-up");
            assertTrue(
                    requestsAtWindowStart.get() > 0,
                    "one process: its connections open and answered before the window");
            assertTrue(
                    finished > windowEnd.get(),
                    "wrk runs on past the window, its stop not measured: "
                            + (windowStart.get() - started.get()) / 1e6 + " ms, "
                            + (windowEnd.get() - started.get()) / 1e6 + " ms, "
                            + (finished - started.get()) / 1e6 + " ms");
            assertTrue(
                    outcome.window().requests() > 0
                            && outcome.window().requests() < outcome.answers().answered(),
                    "the window's requests, fewer than wrk's" + " whole run: "
                            + outcome.window().requests() + " of "
                            + outcome.answers().answered());
            assertEquals(0, outcome.window().failed().total());
            assertTrue(
                    outcome.window().durationSeconds() >= 2 && outcome.window().durationSeconds() < 3,
                    "the window: " + outcome.window().durationSeconds());
            assertTrue(
                    outcome.generatorCpuSeconds() > 0 && outcome.generatorCpuSeconds() < 2 * 2,
                    "wrk's own CPU over the window, at most" + " its 2 s on 2 threads: "
                            + outcome.generatorCpuSeconds());
            // the stand-in answers 1 in 10 after 100 ms: 4 connections reach at most 4 x 10 / 0.1 = 400 requests/s
            assertTrue(
                    outcome.window().requestsPerSecond() > 100
                            && outcome.window().requestsPerSecond() <= 400 * 1.05,
                    "req/s " + outcome.window().requestsPerSecond());
            assertTrue(
                    outcome.latency().latencyMs().p99() >= 100,
                    "1 in 10 held 100 ms: p99 " + outcome.latency().latencyMs().p99());
            assertEquals(13, outcome.latency().percentiles().size());
            long unanswered = server.requests() - outcome.answers().answered();
            assertTrue(
                    unanswered >= 0 && unanswered <= outcome.answers().unansweredAllowance(),
                    "the server counted " + server.requests() + ", wrk was answered "
                            + outcome.answers().answered());
        }
    }
}
