package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One server in process, on a free port: what the contract suite (contract-tests), which runs the
 * servers' jars, cannot see from outside. Each server module's test runs this body against its server.
 */
public abstract class InProcessServerTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ServerMain.Started server;

    /** The server's defaults and framework, as its main has them. */
    protected abstract ServerOptions.Defaults defaults();

    protected abstract ServerMain.Framework framework();

    /** Starts the server as its main does. */
    protected abstract ServerMain.Started start(ServerMain.Setup setup) throws Exception;

    /** Starts the server with a delay that throws instead of waiting. */
    protected abstract ServerMain.Started startWithAFailingDelay(ServerMain.Setup setup) throws Exception;

    /** How the names of the server's worker threads begin. */
    protected abstract String workerThreadPrefix();

    /** The logger the server's routes log a failed request to. */
    protected abstract String routesLogger();

    protected final ServerMain.Setup setup(String... args) {
        List<String> all = new ArrayList<>(List.of("--port", "0", "--host", "127.0.0.1"));
        all.addAll(List.of(args));
        ServerOptions.Defaults defaults = defaults();
        ServerOptions options = ServerOptions.parse(
                new ServerOptions.Defaults(defaults.server(), 0, defaults.strategy()),
                all.toArray(String[]::new),
                Map.of());
        return ServerMain.Setup.of(defaults.server(), options);
    }

    /** Starts the server, stopped after the test; its base URL. */
    protected final String serve(ServerMain.Setup setup) throws Exception {
        server = start(setup);
        return "http://127.0.0.1:" + server.port();
    }

    protected final ServerMain.Started server() {
        return server;
    }

    @BeforeEach
    void quietFramework() {
        FrameworkLogging.quiet(framework().loggers());
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

    @Test
    void workerThreadsAreStartedOnDemandAndReused() throws Exception {
        String url = serve(setup("--strategy", "blocking", "--delay-every", "1", "--delay-ms", "20"));
        assertEquals(0, workerThreads(), "no worker thread before the first delayed request");
        for (int i = 0; i < 40; i++) {
            assertEquals(200, get(url + "/").statusCode());
        }
        int kept = OnDemandThreadPool.coreFor(ServerOptions.DEFAULT_WORKERS);
        assertTrue(
                workerThreads() <= kept,
                "40 delayed requests one after another left " + workerThreads()
                        + " worker threads; a fixed pool of 10,000 would have started one per request");
    }

    @Test
    void limitsAnswer414And431WithTheSharedBodies() throws Exception {
        ServerMain.Setup setup = setup();
        String url = serve(setup);
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

        assertEquals(
                200,
                get(url + "/?q=" + "a".repeat(HttpLimits.MAX_URI_LENGTH - 10)).statusCode());
        assertNoneInFlight(setup.stats());
    }

    @Test
    void aFailingHandlerIsA500WithTheFixedBodyLoggedOnce() throws Exception {
        List<LogRecord> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger routes = Logger.getLogger(routesLogger());
        routes.addHandler(capture);
        routes.setUseParentHandlers(false);
        try {
            ServerMain.Setup setup = setup("--strategy", "timer", "--delay-every", "1");
            server = startWithAFailingDelay(setup);
            HttpResponse<String> response = get("http://127.0.0.1:" + server.port() + "/");
            assertAll(
                    () -> assertEquals(500, response.statusCode()),
                    () -> assertEquals(
                            new String(FixedResponse.INTERNAL_ERROR.body(), StandardCharsets.UTF_8), response.body()),
                    () -> assertFalse(response.body().contains("boom")),
                    () -> assertEquals(1, logged.size(), "logged once"),
                    () -> assertNoneInFlight(setup.stats()));
        } finally {
            routes.removeHandler(capture);
            routes.setUseParentHandlers(true);
        }
    }

    @Test
    void statsReportTheProcessCostAndItsCpuGrowsWithWork() throws Exception {
        String url = serve(setup("--delay-every", "0"));
        String idle = get(url + "/stats").body();
        for (String field : List.of(
                "cpuMs",
                "threads",
                "threadsPeak",
                "heapUsedBytes",
                "heapCommittedBytes",
                "heapAfterGcBytes",
                "gcCount",
                "gcPauseMs",
                "jitMs")) {
            assertTrue(JsonFields.number(idle, field) >= 0, field + " in " + idle);
        }
        for (String linuxOnly : List.of(
                "cpuUserMs",
                "cpuSystemMs",
                "rssBytes",
                "rssPeakBytes",
                "voluntaryContextSwitches",
                "involuntaryContextSwitches")) {
            JsonFields.number(idle, linuxOnly);
        }
        assertTrue(JsonFields.number(idle, "threadsPeak") >= JsonFields.number(idle, "threads"), idle);
        for (int i = 0; i < 2000; i++) {
            assertEquals(200, get(url + "/").statusCode());
        }
        String worked = get(url + "/stats").body();
        assertTrue(JsonFields.number(worked, "cpuMs") > JsonFields.number(idle, "cpuMs"), idle + " then " + worked);
        if (JsonFields.number(idle, "cpuUserMs") != null) {
            assertTrue(
                    JsonFields.number(worked, "cpuUserMs") + JsonFields.number(worked, "cpuSystemMs")
                            > JsonFields.number(idle, "cpuUserMs") + JsonFields.number(idle, "cpuSystemMs"),
                    idle + " then " + worked);
        }
    }

    @Test
    void statsCountTheThreadsTheBlockingStrategyStartsForDelayedRequests() throws Exception {
        int delayed = 30;
        ServerMain.Setup setup = setup("--strategy", "blocking", "--delay-every", "1", "--delay-ms", "3000");
        String url = serve(setup);
        long idle = JsonFields.number(get(url + "/stats").body(), "threads");
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < delayed; i++) {
            answers.add(HTTP.sendAsync(
                    HttpRequest.newBuilder(URI.create(url + "/"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (setup.stats().inFlight() < delayed && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(delayed, setup.stats().inFlight(), "delayed requests in flight");
        String during = get(url + "/stats").body();
        // each delayed request sleeps on a worker thread of its own; the client's threads only add to it
        assertTrue(
                JsonFields.number(during, "threads") >= idle + delayed - 5,
                idle + " threads idle, then with " + delayed + " delayed requests in flight: " + during);
        assertTrue(JsonFields.number(during, "threadsPeak") >= JsonFields.number(during, "threads"), during);
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
        }
    }

    /**
     * /stats?threads reads three /proc files per thread: with hundreds of idle workers that is milliseconds a read,
     * which must land on the stats reader's thread (class other), never on the request classes it measures.
     */
    @Test
    void readingTheThreadBillIsBilledToOtherNotToTheRequestClasses() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        int idleWorkers = 300;
        ServerMain.Setup setup = setup("--strategy", "blocking", "--delay-every", "1", "--delay-ms", "500");
        String url = serve(setup);
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < idleWorkers; i++) {
            answers.add(HTTP.sendAsync(
                    HttpRequest.newBuilder(URI.create(url + "/"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
        }
        assertTrue(workerThreads() >= idleWorkers / 2, workerThreads() + " idle workers");
        get(url + "/stats?threads"); // the reader's thread started, its first read's class loading done

        List<ThreadClasses.Rule> table = ThreadClasses.table(defaults().server());
        ThreadSnapshot before = ThreadSnapshot.read(Path.of("/proc/self"));
        for (int i = 0; i < 30; i++) {
            assertEquals(200, get(url + "/stats?threads").statusCode());
        }
        ThreadSnapshot after = ThreadSnapshot.read(Path.of("/proc/self"));

        Map<String, ThreadClasses.Cost> window = ThreadSnapshot.between(before, after, table);
        double requestMs = window.get("io").cpuMs()
                + window.get("worker").cpuMs()
                + window.get("carrier").cpuMs();
        double readerMs = cpuMs(after, ServerStats.THREAD_READER) - cpuMs(before, ServerStats.THREAD_READER);
        double otherMs = window.get("other").cpuMs();
        // the io thread parses each request and hands it over: a small fraction of what the reading costs
        assertTrue(
                requestMs < otherMs / 4,
                "30 reads: the request classes grew " + requestMs + " ms, other " + otherMs + " ms: " + window);
        assertTrue(readerMs > 0, "the reader's thread did the reading: " + readerMs + " ms");
        assertTrue(otherMs >= readerMs, "other holds the reader's thread: " + window);
    }

    private static double cpuMs(ThreadSnapshot snapshot, String comm) {
        return snapshot.tasks().values().stream()
                        .filter(t -> t.comm().equals(comm))
                        .mapToLong(ThreadClasses.Task::cpuNanos)
                        .sum()
                / 1e6;
    }

    /**
     * Half the requests fast, half delayed, each answered no sooner than its work: the work is on the way to every
     * answer. And it is CPU: the process (the client's and the JIT's threads too, so only a floor) spent at least three
     * quarters of it, not all, as a virtual thread spins on wall time, which the OS can take from its carrier.
     */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void workUsSpendsCpuBeforeEveryAnswerFastOrDelayed(Strategy strategy) throws Exception {
        int requests = 40;
        long workMicros = 5_000;
        String url = serve(setup(
                "--strategy", strategy.id(), "--delay-every", "2", "--delay-ms", "1", "--work-us", "" + workMicros));
        long before = JsonFields.number(get(url + "/stats").body(), "cpuMs");
        for (int i = 0; i < requests; i++) {
            long sent = System.nanoTime();
            assertEquals(200, get(url + "/").statusCode());
            long tookMicros = (System.nanoTime() - sent) / 1000;
            assertTrue(
                    tookMicros >= workMicros,
                    strategy.id() + ": request " + (i + 1) + " answered in " + tookMicros + " us, under its work");
        }
        long spentMs = JsonFields.number(get(url + "/stats").body(), "cpuMs") - before;
        long workMs = requests * workMicros / 1000;
        assertTrue(
                spentMs >= workMs * 3 / 4,
                requests + " answers with " + workMicros + " us of work each, " + strategy.id() + ": the process spent "
                        + spentMs + " ms of CPU");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "lots", "1.5"})
    void aBadWorkUsIsRefusedInOneLineNamingIt(String value) {
        OptionException e = assertThrows(OptionException.class, () -> setup("--work-us", value));
        assertTrue(e.getMessage().startsWith("--work-us") || e.getMessage().contains("'--work-us"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    private long workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(workerThreadPrefix()))
                .count();
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
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
