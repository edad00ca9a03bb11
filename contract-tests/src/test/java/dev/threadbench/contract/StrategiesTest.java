package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.threadbench.process.ServerProcess;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way of waiting, on both servers, keeps the same pattern; only {@code blocking} is bound by its pool. */
class StrategiesTest {

    private static final long DELAY_MS = 1000;
    private static final byte[] HELLO = Servers.helloHtml();

    @BeforeAll
    static void onlyWhenTheSuiteStartsTheServers() {
        assumeFalse(Servers.external(), "starts servers with each strategy");
    }

    static Stream<Arguments> serversAndStrategies() {
        return Servers.NAMES.stream()
                .flatMap(server ->
                        Stream.of("blocking", "timer", "virtual").map(strategy -> Arguments.of(server, strategy)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serversAndStrategies")
    void freshServerAnswersNineFastThenOneDelayedAndDelaysInParallel(String server, String strategy) throws Exception {
        try (ServerProcess process =
                Servers.start(server, "--strategy", strategy, "--delay-ms", String.valueOf(DELAY_MS))) {
            Target target = new Target(server, process.baseUrl());
            assertEquals(strategy, target.stats().getString("strategy"));
            for (int i = 1; i <= 9; i++) {
                Target.Timed fast = target.timedGet();
                fast.response().then().statusCode(200);
                assertTrue(fast.millis() < DELAY_MS, "request " + i + " took " + fast.millis() + " ms");
            }
            Target.Timed delayed = target.timedGet();
            delayed.response().then().statusCode(200);
            assertArrayEquals(HELLO, delayed.response().asByteArray());
            assertTrue(delayed.millis() >= DELAY_MS, "request 10 came after only " + delayed.millis() + " ms");

            // 100 concurrent clients: 10 of their requests are delayed and wait side by side, not in turn.
            long wall = concurrentGets(process.baseUrl(), 100);
            assertTrue(wall >= DELAY_MS, "10 delayed requests were answered after only " + wall + " ms");
            assertTrue(wall < 5 * DELAY_MS, "10 delayed requests took " + wall + " ms: they waited in turn");
            var stats = target.stats();
            assertAll(
                    () -> assertEquals(110, stats.getLong("requests")),
                    () -> assertEquals(11, stats.getLong("delayed")),
                    () -> assertEquals(0, stats.getLong("inFlight")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"undertow", "vertx"})
    void blockingWithTwoWorkersReallyBlocks(String server) throws Exception {
        long delay = 500;
        try (ServerProcess process = Servers.start(
                server,
                "--strategy",
                "blocking",
                "--workers",
                "2",
                "--delay-every",
                "1",
                "--delay-ms",
                String.valueOf(delay))) {
            // 6 delayed requests, 2 threads to sleep on: 3 rounds at least.
            long wall = concurrentGets(process.baseUrl(), 6);
            assertTrue(wall >= 3 * delay, "6 requests on 2 workers took only " + wall + " ms");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serversAndStrategies")
    void delayOffAnswersEveryRequestAtOnce(String server, String strategy) throws Exception {
        try (ServerProcess process =
                Servers.start(server, "--strategy", strategy, "--delay-every", "0", "--delay-ms", "60000")) {
            long wall = concurrentGets(process.baseUrl(), 50);
            assertTrue(wall < 30_000, "50 undelayed requests took " + wall + " ms");
            assertEquals(0, new Target(server, process.baseUrl()).stats().getLong("delayed"));
        }
    }

    /** {@code clients} concurrent GET / on their own connections; returns the wall time until all were answered 200. */
    static long concurrentGets(String baseUrl, int clients) throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/"))
                .timeout(Duration.ofSeconds(60))
                .build();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                answers.add(pool.submit(() -> http.send(request, HttpResponse.BodyHandlers.ofByteArray())));
            }
            for (Future<HttpResponse<byte[]>> answer : answers) {
                HttpResponse<byte[]> response = answer.get();
                assertEquals(200, response.statusCode());
                assertArrayEquals(HELLO, response.body());
            }
        }
        return Duration.ofNanos(System.nanoTime() - start).toMillis();
    }
}
