package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGTERM drains: health goes 503, new connections are refused or answered 503, every admitted request
 * (delayed ones too) is answered, and the process exits 0 within the delay plus the grace. A second
 * SIGTERM, or a drain that outlives the delay plus the grace, forces exit 1.
 */
class ShutdownTest {

    private static final long DELAY_MS = 1500;
    /** Beyond the drain limit: the JVM's own exit, and a busy machine. */
    private static final long EXIT_SLACK_MS = 3_000;

    private static final byte[] GET_ROOT = RawHttp.get("/");
    private static final byte[] GET_HEALTH = RawHttp.get("/health");

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "signals the server processes");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void sigtermLetsDelayedRequestsFinishThenExitsZero(String server) throws Exception {
        try (ServerProcess process =
                        Servers.start(server, "--delay-every", "1", "--delay-ms", String.valueOf(DELAY_MS));
                ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
                Socket keptAlive = new RawHttp(process.baseUrl()).connect(Duration.ofSeconds(5))) {
            Target target = new Target(server, process.baseUrl());
            RawHttp raw = new RawHttp(process.baseUrl());
            keptAlive.getOutputStream().write(GET_HEALTH);
            assertEquals(200, RawHttp.read(keptAlive.getInputStream(), false).status(), "before SIGTERM");
            target.stats(); // a JVM's first REST-assured call takes seconds: not while the delayed requests wait
            HttpClient http = HttpClient.newHttpClient();
            List<Future<HttpResponse<byte[]>>> pending = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                pending.add(clients.submit(
                        () -> http.send(get(process.baseUrl() + "/"), HttpResponse.BodyHandlers.ofByteArray())));
            }
            target.awaitInFlight(20);

            long signalled = System.nanoTime();
            process.process().destroy();
            assertTrue(
                    healthStopsAnswering200(process.baseUrl(), Duration.ofSeconds(1)),
                    "/health still answered 200 a second after SIGTERM");
            String newConnection = refusedOr503(() -> raw.exchange(GET_ROOT, false, Duration.ofSeconds(5)));
            assertTrue(
                    newConnection.equals("refused") || newConnection.equals("503"),
                    "a new connection while draining: " + newConnection);
            String idleConnection = refusedOr503(() -> {
                keptAlive.getOutputStream().write(GET_ROOT);
                return RawHttp.read(keptAlive.getInputStream(), false);
            });
            assertTrue(
                    idleConnection.equals("refused") || idleConnection.equals("503"),
                    "a request on a connection kept alive from before SIGTERM: " + idleConnection);
            for (Future<HttpResponse<byte[]>> answer : pending) {
                assertEquals(
                        200,
                        answer.get(DELAY_MS + 10_000, TimeUnit.MILLISECONDS).statusCode());
            }
            assertTrue(
                    process.process().waitFor(DELAY_MS + 10_000, TimeUnit.MILLISECONDS),
                    "still running" + process.output());
            assertEquals(0, process.exitCode(), process.output());
            long took = Duration.ofNanos(System.nanoTime() - signalled).toMillis();
            long limit = DELAY_MS + GracefulShutdown.GRACE.toMillis() + EXIT_SLACK_MS;
            assertTrue(
                    took < limit,
                    "took " + took + " ms to exit, more than the delay plus the grace (" + limit + " ms)");
            assertFalse(process.output().contains("\tat "), "a stack trace in the log:" + process.output());
        }
    }

    /**
     * A client that never reads keeps a large answer from being written, so its request stays in
     * flight: the drain gives up after the delay (0 here) plus the grace, and exits 1.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void aDrainThatOutlivesTheGraceForcesExitOne(String server, @TempDir Path dir) throws Exception {
        Path page = dir.resolve("large.html");
        Files.write(page, new byte[64 * 1024 * 1024]);
        try (ServerProcess process =
                        Servers.start(server, "--page", page.toString(), "--delay-every", "0", "--delay-ms", "0");
                Socket neverReads = new RawHttp(process.baseUrl()).connect(Duration.ofSeconds(5))) {
            neverReads.setReceiveBufferSize(64 * 1024);
            neverReads.getOutputStream().write(GET_ROOT);
            new Target(server, process.baseUrl()).awaitInFlight(1);
            long signalled = System.nanoTime();
            process.process().destroy();
            long grace = GracefulShutdown.GRACE.toMillis();
            assertTrue(
                    process.process().waitFor(grace + 10_000, TimeUnit.MILLISECONDS),
                    "still running" + process.output());
            long took = Duration.ofNanos(System.nanoTime() - signalled).toMillis();
            assertEquals(1, process.exitCode(), process.output());
            assertTrue(took >= grace, "gave up after " + took + " ms, before the grace of " + grace + " ms");
        }
    }

    private interface Attempt {
        RawHttp.Outcome run() throws IOException;
    }

    /** "refused" when the connection was refused, closed or reset; else the status answered. */
    private static String refusedOr503(Attempt attempt) {
        try {
            RawHttp.Outcome outcome = attempt.run();
            return outcome.ending() == RawHttp.Ending.RESPONSE
                    ? String.valueOf(outcome.status())
                    : outcome.ending() == RawHttp.Ending.TIMEOUT ? "no answer" : "refused";
        } catch (IOException | UncheckedIOException refused) {
            return "refused";
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void secondSigtermForcesTheExit(String server) throws Exception {
        long longDelay = 60_000;
        try (ServerProcess process =
                        Servers.start(server, "--delay-every", "1", "--delay-ms", String.valueOf(longDelay));
                ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Target target = new Target(server, process.baseUrl());
            HttpClient http = HttpClient.newHttpClient();
            clients.submit(() -> http.send(get(process.baseUrl() + "/"), HttpResponse.BodyHandlers.discarding()));
            target.awaitInFlight(1);
            process.process().destroy();
            Servers.sleep(300);
            assertTrue(process.process().isAlive(), "exited before the delayed request was answered");
            process.process().destroy();
            assertTrue(
                    process.process().waitFor(10, TimeUnit.SECONDS),
                    "a second SIGTERM did not end it" + process.output());
            assertNotEquals(0, process.exitCode(), "a forced exit is not a clean one");
            clients.shutdownNow();
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .build();
    }

    private static boolean healthStopsAnswering200(String baseUrl, Duration within) throws InterruptedException {
        HttpClient fresh =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                int status = fresh.send(get(baseUrl + "/health"), HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status == 503) {
                    return true;
                }
            } catch (IOException refused) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }
}
