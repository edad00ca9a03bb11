package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SIGTERM drains: health goes 503, every admitted request (delayed ones too) is answered, exit 0. */
class ShutdownTest {

    private static final long DELAY_MS = 1500;

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "signals the server processes");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void sigtermLetsDelayedRequestsFinishThenExitsZero(String server) throws Exception {
        try (ServerProcess process = ServerProcess.start(server, "--delay-every", "1", "--delay-ms", String.valueOf(DELAY_MS));
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Target target = new Target(server, process.baseUrl());
            HttpClient http = HttpClient.newHttpClient();
            List<Future<HttpResponse<byte[]>>> pending = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                pending.add(clients.submit(() -> http.send(get(process.baseUrl() + "/"), HttpResponse.BodyHandlers.ofByteArray())));
            }
            target.awaitInFlight(20);

            long signalled = System.nanoTime();
            process.process().destroy();
            assertTrue(healthStopsAnswering200(process.baseUrl(), Duration.ofSeconds(1)),
                    "/health still answered 200 a second after SIGTERM");
            for (Future<HttpResponse<byte[]>> answer : pending) {
                assertEquals(200, answer.get(DELAY_MS + 10_000, TimeUnit.MILLISECONDS).statusCode());
            }
            assertTrue(process.process().waitFor(DELAY_MS + 10_000, TimeUnit.MILLISECONDS), "still running" + process.output());
            assertEquals(0, process.exitCode(), process.output());
            long took = Duration.ofNanos(System.nanoTime() - signalled).toMillis();
            assertTrue(took < DELAY_MS + 10_000, "took " + took + " ms to exit");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void secondSigtermForcesTheExit(String server) throws Exception {
        long longDelay = 60_000;
        try (ServerProcess process = ServerProcess.start(server, "--delay-every", "1", "--delay-ms", String.valueOf(longDelay));
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Target target = new Target(server, process.baseUrl());
            HttpClient http = HttpClient.newHttpClient();
            clients.submit(() -> http.send(get(process.baseUrl() + "/"), HttpResponse.BodyHandlers.discarding()));
            target.awaitInFlight(1);
            process.process().destroy();
            ServerProcess.sleep(300);
            assertTrue(process.process().isAlive(), "exited before the delayed request was answered");
            process.process().destroy();
            assertTrue(process.process().waitFor(10, TimeUnit.SECONDS), "a second SIGTERM did not end it" + process.output());
            assertNotEquals(0, process.exitCode(), "a forced exit is not a clean one");
            clients.shutdownNow();
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
    }

    private static boolean healthStopsAnswering200(String baseUrl, Duration within) throws InterruptedException {
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                int status = fresh.send(get(baseUrl + "/health"), HttpResponse.BodyHandlers.discarding()).statusCode();
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
