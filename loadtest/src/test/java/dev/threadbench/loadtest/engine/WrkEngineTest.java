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
            Outcome outcome = new WrkEngine("/usr/bin/wrk").run(URI.create("http://127.0.0.1:" + server.port() + "/"), 4,
                    new Engine.Timing(0, 1, 2, null, 10, 0), new LoadRunner.Phases() {
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
            assertTrue(requestsAtWindowStart.get() > 0, "one process: its connections open and answered before the window");
            assertTrue(finished > windowEnd.get(), "wrk runs on past the window, its stop not measured: "
                    + (windowStart.get() - started.get()) / 1e6 + " ms, " + (windowEnd.get() - started.get()) / 1e6 + " ms, "
                    + (finished - started.get()) / 1e6 + " ms");
            assertTrue(outcome.requests() > 0 && outcome.requests() < outcome.answered(), "the window's requests, fewer than wrk's"
                    + " whole run: " + outcome.requests() + " of " + outcome.answered());
            assertEquals(0, outcome.failed().total());
            assertTrue(outcome.durationSeconds() >= 2 && outcome.durationSeconds() < 3, "the window: " + outcome.durationSeconds());
            assertTrue(outcome.clientCpuSeconds() > 0 && outcome.clientCpuSeconds() < 2 * 2, "wrk's own CPU over the window, at most"
                    + " its 2 s on 2 threads: " + outcome.clientCpuSeconds());
            // the stand-in answers 1 in 10 after 100 ms: 4 connections reach at most 4 x 10 / 0.1 = 400 requests/s
            assertTrue(outcome.requestsPerSecond() > 100 && outcome.requestsPerSecond() <= 400 * 1.05, "req/s "
                    + outcome.requestsPerSecond());
            assertTrue(outcome.latency().p99() >= 100, "1 in 10 held 100 ms: p99 " + outcome.latency().p99());
            assertEquals(13, outcome.percentiles().size());
            long unanswered = server.requests() - outcome.answered();
            assertTrue(unanswered >= 0 && unanswered <= outcome.unansweredAllowance(),
                    "the server counted " + server.requests() + ", wrk was answered " + outcome.answered());
        }
    }
}
