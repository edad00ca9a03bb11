package dev.threadbench.undertow;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.common.FixedResponse;
import dev.threadbench.common.FrameworkLogging;
import dev.threadbench.common.GracefulShutdown;
import dev.threadbench.common.HttpLimits;
import dev.threadbench.common.OnDemandThreadPool;
import dev.threadbench.common.Page;
import dev.threadbench.common.ServerOptions;
import dev.threadbench.common.ServerStats;
import dev.threadbench.common.Strategy;
import io.undertow.Undertow;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Undertow server in process, on a free port: what the contract suite cannot see from outside. */
class UndertowServerTest {

    private static final long DELAY_MS = 400;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private UndertowServer server;
    private ServerStats stats;

    private String start(String... args) {
        List<String> all = new ArrayList<>(List.of("--port", "0", "--host", "127.0.0.1"));
        all.addAll(List.of(args));
        ServerOptions options = ServerOptions.parse(
                new ServerOptions.Defaults("undertow", 0, Strategy.BLOCKING), all.toArray(String[]::new), Map.of());
        stats = new ServerStats("undertow", options.strategy(), options.delayEvery());
        server = UndertowServer.start(options, stats, new GracefulShutdown());
        return "http://127.0.0.1:" + server.port();
    }

    @BeforeAll
    static void quietFramework() {
        FrameworkLogging.quiet(UndertowServer.FRAMEWORK_LOGGERS);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stopAccepting();
            server.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (workerThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void delayedRequestsPendingTogetherWaitSideBySide(Strategy strategy) throws Exception {
        String url = start("--strategy", strategy.id(), "--delay-every", "1", "--delay-ms", String.valueOf(DELAY_MS));
        int requests = 20;
        long wall = concurrentGets(url + "/", requests);
        assertTrue(wall >= DELAY_MS, "answered after only " + wall + " ms");
        assertTrue(wall < requests * DELAY_MS / 2, requests + " delayed requests took " + wall + " ms: they waited in turn");
        assertNoneInFlight(stats);
    }

    @Test
    void blockingWaitsInTurnOnceEveryWorkerSleeps() throws Exception {
        String url = start("--strategy", "blocking", "--workers", "2", "--delay-every", "1", "--delay-ms", String.valueOf(DELAY_MS));
        long wall = concurrentGets(url + "/", 6);
        assertTrue(wall >= 3 * DELAY_MS, "6 delayed requests on 2 workers took only " + wall + " ms");
    }

    @Test
    void workerThreadsAreStartedOnDemandAndReused() throws Exception {
        String url = start("--strategy", "blocking", "--delay-every", "1", "--delay-ms", "20");
        assertEquals(0, workerThreads(), "no worker thread before the first delayed request");
        for (int i = 0; i < 40; i++) {
            assertEquals(200, get(url + "/").statusCode());
        }
        int kept = OnDemandThreadPool.coreFor(ServerOptions.DEFAULT_WORKERS);
        assertTrue(workerThreads() <= kept, "40 delayed requests one after another left " + workerThreads()
                + " worker threads; a fixed pool of 10,000 would have started one per request");
    }

    @Test
    void limitsAnswer414And431WithTheSharedBodies() throws Exception {
        String url = start();
        HttpResponse<String> longTarget = get(url + "/?q=" + "a".repeat(HttpLimits.MAX_URI_LENGTH));
        assertEquals(414, longTarget.statusCode());
        assertEquals(new String(FixedResponse.URI_TOO_LONG.body(), StandardCharsets.UTF_8), longTarget.body());

        HttpRequest.Builder manyHeaders = HttpRequest.newBuilder(URI.create(url + "/"));
        for (int i = 0; i < HttpLimits.MAX_HEADERS; i++) {
            manyHeaders.header("X-Header-" + i, "v");
        }
        HttpResponse<String> tooMany = HTTP.send(manyHeaders.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(431, tooMany.statusCode());
        assertEquals(new String(FixedResponse.HEADERS_TOO_LARGE.body(), StandardCharsets.UTF_8), tooMany.body());

        assertEquals(200, get(url + "/?q=" + "a".repeat(HttpLimits.MAX_URI_LENGTH - 10)).statusCode());
        assertNoneInFlight(stats);
    }

    @Test
    void aFailingHandlerIsA500WithTheFixedBodyLoggedOnce() throws Exception {
        List<LogRecord> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override public void publish(LogRecord record) { logged.add(record); }
            @Override public void flush() { }
            @Override public void close() { }
        };
        Logger routes = Logger.getLogger(Routes.class.getName());
        routes.addHandler(capture);
        routes.setUseParentHandlers(false);
        try {
            ServerStats counted = new ServerStats("undertow", Strategy.TIMER, 1);
            DelayStrategies.Delay broken = (exchange, answer) -> {
                throw new IllegalStateException("boom");
            };
            Undertow undertow = Undertow.builder()
                    .addHttpListener(0, "127.0.0.1")
                    .setHandler(Routes.root(Page.bundled(), counted, new GracefulShutdown(), broken))
                    .build();
            undertow.start();
            try {
                int port = ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
                HttpResponse<String> response = get("http://127.0.0.1:" + port + "/");
                assertAll(
                        () -> assertEquals(500, response.statusCode()),
                        () -> assertEquals(new String(FixedResponse.INTERNAL_ERROR.body(), StandardCharsets.UTF_8), response.body()),
                        () -> assertFalse(response.body().contains("boom")),
                        () -> assertEquals(1, logged.size(), "logged once"),
                        () -> assertNoneInFlight(counted));
            } finally {
                undertow.stop();
            }
        } finally {
            routes.removeHandler(capture);
            routes.setUseParentHandlers(true);
        }
    }

    private static long workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("undertow-worker-")).count();
    }

    /** The client can see the answer a moment before the server thread that sent it counts it done. */
    private static void assertNoneInFlight(ServerStats stats) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (stats.inFlight() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, stats.inFlight(), "requests still in flight");
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code clients} concurrent GETs; the wall time until all were answered 200. */
    private static long concurrentGets(String url, int clients) throws Exception {
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                answers.add(pool.submit(() -> get(url)));
            }
            for (Future<HttpResponse<String>> answer : answers) {
                assertEquals(200, answer.get().statusCode());
            }
        }
        return Duration.ofNanos(System.nanoTime() - start).toMillis();
    }
}
