package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.StandInServer;
import dev.threadbench.loadtest.plan.Plan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Coordinated omission, shown: a stand-in server in a child JVM is stopped (SIGSTOP) for about a second in the
 * middle of the measured window. The open model records the stall for every request scheduled during it; a
 * closed loop, which stops sending while it waits, records it once per connection at most.
 */
class OpenModelStallIT {

    private static final double RATE = 200;
    private static final int CLOSED_CONNECTIONS = 8;
    private static final long STALL_MILLIS = 1_000;
    /** Far above this server's answers (a millisecond or so, more on a busy machine), half the stall. */
    private static final long SLOW_MICROS = 500_000;

    private static Process server;
    private static URI target;

    @BeforeAll
    static void startServer() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        server = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        StandInServer.class.getName(),
                        "0",
                        "0",
                        "120")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String ready =
                new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(ready != null && ready.startsWith("http "), "the stand-in server started: " + ready);
        target = URI.create("http://127.0.0.1:" + ready.split(" ")[1] + "/");
    }

    @AfterAll
    static void stopServer() throws Exception {
        signal("CONT");
        server.destroy();
        server.waitFor(10, TimeUnit.SECONDS);
    }

    private static void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(server.pid()))
                .inheritIO()
                .start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }

    /**
     * A 4 s measured run after a 2 s warm-up (the child JVM's first second is slow); 1 s into the measured window, the
     * server stops for about a second.
     */
    private static Run runWithStall(int connections, Double rate) {
        CompletableFuture<Long> stalledNanos = new CompletableFuture<>();
        LoadRunner.Phases stallInTheWindow = new LoadRunner.Phases() {
            @Override
            public void measureStarted() {
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        Thread.sleep(1_000);
                        signal("STOP");
                        // timed from the STOP delivered (kill has exited) to the CONT sent: the span the server surely
                        // stood still; starting kill takes a few hundred ms on a busy machine, which is no part of it
                        long stopped = System.nanoTime();
                        Thread.sleep(STALL_MILLIS);
                        long continued = System.nanoTime();
                        signal("CONT");
                        stalledNanos.complete(continued - stopped);
                    } catch (Exception e) {
                        stalledNanos.completeExceptionally(e);
                    }
                });
            }
        };
        LoadSpec spec = new LoadSpec(
                List.of(new Plan.Step("GET /", "GET", target, Map.of())),
                connections,
                Duration.ZERO,
                Duration.ofSeconds(10),
                new LoadShape.Timed(Duration.ofSeconds(2), Duration.ofSeconds(4)),
                2,
                rate);
        LoadResult result = new LoadRunner(spec, stallInTheWindow, Progress.Sink.NONE).run();
        return new Run(result, stalledNanos.join() / 1e6);
    }

    private record Run(LoadResult result, double stallMs) {
        long slow() {
            Histogram h = result.latencyMicros();
            return h.getTotalCount() - h.getCountBetweenValues(0, SLOW_MICROS);
        }

        double maxMs() {
            return result.latencyMicros().getMaxValue() / 1000.0;
        }
    }

    @Test
    void theOpenModelRecordsTheStallForEveryRequestScheduledDuringIt() {
        Run run = runWithStall(400, RATE);
        LoadResult.Open open = run.result().open();
        assertEquals(0, run.result().failed());
        assertEquals(0, open.unsent(), "400 connections cover the 200 requests in flight during the stall");
        assertEquals(RATE * 4, run.result().requests(), 2, "every request intended in the 4 s window is recorded");
        // sent on schedule, stall or not (a busy machine may leave the client a little behind at the window's start)
        assertEquals(RATE, run.result().achievedRate(), RATE * 0.1);
        // the request intended as the server stopped waits the whole stall
        assertTrue(
                run.maxMs() >= 0.9 * run.stallMs() && run.maxMs() < run.stallMs() + 1_500,
                "max " + run.maxMs() + " ms against a stall of " + run.stallMs() + " ms");
        // those intended in the stall's first (stall - 0.5 s) waited more than 0.5 s; the server's catching up after
        // it (the backlog at once, on a shared machine) may add some, but not the whole run's
        double expectedSlow = RATE * (run.stallMs() - SLOW_MICROS / 1000.0) / 1000;
        double atMost = RATE * (run.stallMs() + 1_500) / 1000;
        assertTrue(
                run.slow() >= 0.7 * expectedSlow && run.slow() <= atMost,
                run.slow() + " requests above 500 ms, expected " + Math.round(0.7 * expectedSlow) + " to "
                        + Math.round(atMost));
    }

    @Test
    void aClosedLoopRecordsTheStallOncePerConnectionAtMost() {
        Run run = runWithStall(CLOSED_CONNECTIONS, null);
        assertEquals(0, run.result().failed());
        assertTrue(
                run.maxMs() >= 0.9 * run.stallMs(),
                "max " + run.maxMs() + " ms against a stall of " + run.stallMs() + " ms");
        assertTrue(
                run.slow() >= 1 && run.slow() <= CLOSED_CONNECTIONS,
                run.slow() + " requests above 500 ms from " + CLOSED_CONNECTIONS + " connections");
    }

    @Test
    void anOpenRunWithTooFewConnectionsSaysItFellBehind() {
        Run run = runWithStall(20, RATE);
        LoadResult.Open open = run.result().open();
        // 20 connections stuck in the stall: the next requests wait for one, sent late, counted from their intended
        // time
        assertTrue(open.late() > 50, open.late() + " late");
        assertTrue(open.maxLateMs() >= 0.5 * run.stallMs(), "latest " + open.maxLateMs() + " ms");
        assertTrue(run.slow() >= 0.7 * RATE * (run.stallMs() - 500) / 1000, run.slow() + " requests above 500 ms");
    }
}
