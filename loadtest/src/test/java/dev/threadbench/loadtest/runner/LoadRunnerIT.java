package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.StandInServer;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.LatencySummary;
import dev.threadbench.loadtest.plan.Plan;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The runner against a stand-in server: counts, one connection per slot, each failure cause. */
class LoadRunnerIT {

    private static StandInServer server;

    @BeforeAll
    static void start() {
        server = new StandInServer(10, 100);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static LoadSpec counted(String url, int concurrency, long iterations, int timeoutSeconds) {
        return new LoadSpec(
                List.of(new Plan.Step("step", "GET", URI.create(url), Map.of())),
                concurrency,
                Duration.ZERO,
                Duration.ofSeconds(timeoutSeconds),
                new LoadShape.Counted(Duration.ZERO, iterations),
                2);
    }

    private static String local(int port, String path) {
        return "http://127.0.0.1:" + port + path;
    }

    @Test
    void runsExactlyTheIterationsOnOneKeepAliveConnectionPerSlot() {
        long before = server.requests();
        AtomicInteger edges = new AtomicInteger();
        LoadResult result = new LoadRunner(
                        counted(local(server.port(), "/"), 20, 400, 10),
                        new LoadRunner.Phases() {
                            @Override
                            public void measureStarted() {
                                edges.incrementAndGet();
                            }

                            @Override
                            public void measureEnded() {
                                edges.incrementAndGet();
                            }
                        },
                        Progress.Sink.NONE)
                .run();
        assertEquals(400, result.requests());
        assertEquals(400, result.successes());
        assertEquals(0, result.failed());
        assertEquals(400, result.latencyMicros().getTotalCount());
        assertEquals(20, result.connectionsOpened());
        assertEquals(2, result.eventLoops(), "the slots are spread over both event loops");
        assertEquals(400, result.sent());
        assertEquals(400, result.answered());
        assertEquals(400, server.requests() - before, "the server counted what the client was answered");
        assertEquals(2, edges.get());
        // 40 of the 400 were held 100 ms
        assertTrue(LatencySummary.of(result.latencyMicros()).p99() >= 100);
        assertTrue(result.durationSeconds() > 0.1 && result.durationSeconds() < 30, "took " + result.durationSeconds());
    }

    @Test
    void aTimedRunMeasuresItsWindowAfterTheWarmUp() {
        LoadSpec spec = new LoadSpec(
                List.of(new Plan.Step("step", "GET", URI.create(local(server.port(), "/")), Map.of())),
                10,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                new LoadShape.Timed(Duration.ofSeconds(1), Duration.ofSeconds(2)),
                2);
        long started = System.nanoTime();
        LoadResult result = new LoadRunner(spec, new LoadRunner.Phases() {}, Progress.Sink.NONE).run();
        double took = (System.nanoTime() - started) / 1e9;
        assertEquals(2.0, result.durationSeconds(), 1e-6);
        assertTrue(took >= 4.0 && took < 30, "ramp-up 1 s + warm-up 1 s + 2 s measured, then the drain: " + took);
        assertTrue(result.requests() > 10, "requests measured: " + result.requests());
        assertEquals(0, result.failed());
        assertEquals(result.sent(), result.answered(), "everything sent was answered, warm-up and drain included");
        assertTrue(result.sent() > result.requests(), "warm-up requests are sent but not measured");
        SecondSeries seconds = result.seconds();
        assertEquals(
                2.0, seconds.measureStartSecond(), 1e-6, "the window on the series' clock: after ramp-up and warm-up");
        assertEquals(4.0, seconds.measureEndSecond(), 1e-6);
        assertEquals(
                result.sent(),
                seconds.seconds().stream()
                        .mapToLong(SecondSeries.Second::requests)
                        .sum(),
                "every request sent completed in one second of the series, warm-up and drain included");
        assertTrue(
                seconds.seconds().size() >= 4,
                "a bucket for each second of the load: " + seconds.seconds().size());
        assertTrue(
                seconds.seconds().get(2).requests() > 0
                        && seconds.seconds().get(2).p99Ms() >= 100,
                "a measured second has its answers, the delayed ones among them: "
                        + seconds.seconds().get(2));
    }

    @ParameterizedTest
    @EnumSource(GeneratorTransport.class)
    void runsOnTheTransportAskedForOrSaysWhichRan(GeneratorTransport transport) {
        LoadSpec spec = counted(local(server.port(), "/"), 4, 40, 10).with(transport, List.of());
        LoadResult result = new LoadRunner(spec, new LoadRunner.Phases() {}, Progress.Sink.NONE).run();
        assertEquals(40, result.successes());
        List<String> why = new java.util.ArrayList<>();
        GeneratorTransport canRun = transport.start(why::add).transport();
        assertEquals(
                canRun.key(), result.transport(), "asked for " + transport.key() + (why.isEmpty() ? "" : ": " + why));
        assertEquals(why.isEmpty(), canRun == transport, "the one asked for, unless it cannot start here: " + why);
        if (transport != GeneratorTransport.IO_URING
                && System.getProperty("os.name").equals("Linux")) {
            assertEquals(
                    transport.key(),
                    result.transport(),
                    "epoll (netty's native library is packaged) and NIO run on Linux");
        }
    }

    @Test
    void namesTheTransports() {
        assertEquals(GeneratorTransport.IO_URING, GeneratorTransport.parse("io_uring"));
        assertEquals(GeneratorTransport.IO_URING, GeneratorTransport.parse("IO-URING"));
        assertEquals(GeneratorTransport.NIO, GeneratorTransport.parse("nio"));
        assertTrue(assertThrows(UsageException.class, () -> GeneratorTransport.parse("kqueue"))
                .getMessage()
                .contains("expected epoll, io_uring, nio"));
    }

    @Test
    void countsNon2xx() {
        LoadResult result = new LoadRunner(
                        counted(local(server.port(), "/status/500"), 2, 10, 10),
                        new LoadRunner.Phases() {},
                        Progress.Sink.NONE)
                .run();
        assertEquals(10, result.failures().get(FailureCause.NON_2XX));
        assertEquals(0, result.successes());
    }

    @Test
    void countsTimeouts() {
        LoadResult result = new LoadRunner(
                        counted(local(server.port(), "/slow"), 2, 2, 1), new LoadRunner.Phases() {}, Progress.Sink.NONE)
                .run();
        assertEquals(2, result.failures().get(FailureCause.TIMEOUT));
        assertTrue(LatencySummary.of(result.latencyMicros()).max() >= 1000, "failed after the 1 s timeout");
    }

    @Test
    void countsShortBodies() {
        LoadResult result = new LoadRunner(
                        counted(local(server.rawPort(), "/short"), 2, 4, 5),
                        new LoadRunner.Phases() {},
                        Progress.Sink.NONE)
                .run();
        assertEquals(
                4,
                result.failures().get(FailureCause.SHORT_BODY),
                result.failures().toString());
    }

    @Test
    void countsResets() {
        LoadResult result = new LoadRunner(
                        counted(local(server.rawPort(), "/reset"), 2, 4, 5),
                        new LoadRunner.Phases() {},
                        Progress.Sink.NONE)
                .run();
        assertEquals(
                4, result.failures().get(FailureCause.RESET), result.failures().toString());
    }

    @Test
    void countsRefusedConnections() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        LoadResult result = new LoadRunner(
                        counted(local(closedPort, "/"), 2, 6, 5), new LoadRunner.Phases() {}, Progress.Sink.NONE)
                .run();
        assertEquals(
                6,
                result.failures().get(FailureCause.REFUSED),
                result.failures().toString());
        assertEquals(0, result.answered());
    }
}
