package dev.threadbench.loadtest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.loadtest.StandInServer;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The real wrk (when installed) with loadtest's done() script, against a stand-in server. */
class WrkEngineTest {

    @Test
    void wrksOwnSummaryComesBackAsJson() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/wrk")), "wrk is not installed");
        try (StandInServer server = new StandInServer(10, 100)) {
            AtomicInteger edges = new AtomicInteger();
            Outcome outcome = new WrkEngine("/usr/bin/wrk").run(URI.create("http://127.0.0.1:" + server.port() + "/"), 4,
                    new Engine.Timing(0, 1, 2, null, 10, 0), new LoadRunner.Phases() {
                        @Override
                        public void measureStarted() {
                            edges.incrementAndGet();
                        }

                        @Override
                        public void measureEnded() {
                            edges.incrementAndGet();
                        }
                    });
            assertEquals(2, edges.get());
            assertTrue(outcome.requests() > 0, "requests: " + outcome.requests());
            assertEquals(0, outcome.failed().total());
            assertTrue(outcome.durationSeconds() >= 2 && outcome.durationSeconds() < 10, "took " + outcome.durationSeconds());
            assertTrue(outcome.latency().p99() >= 100, "1 in 10 held 100 ms: p99 " + outcome.latency().p99());
            assertEquals(13, outcome.percentiles().size());
            long unanswered = server.requests() - outcome.answered();
            assertTrue(unanswered >= 0 && unanswered <= outcome.unansweredAllowance(),
                    "the server counted " + server.requests() + ", wrk was answered " + outcome.answered());
        }
    }
}
