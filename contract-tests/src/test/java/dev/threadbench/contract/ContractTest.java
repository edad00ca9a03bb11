package dev.threadbench.contract;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.process.ServerProcess;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract both servers keep, written once and run against each: the same page, the same slow
 * request pattern, the same answers to everything else. Runs against servers it starts from their jars,
 * or against running ones given by {@code -Dcontract.undertow=URL -Dcontract.vertx=URL}.
 */
class ContractTest {

    private static final Map<String, Target> TARGETS = new LinkedHashMap<>();
    private static final List<ServerProcess> STARTED = new ArrayList<>();
    private static final byte[] HELLO = Servers.helloHtml();

    private final int delayEvery = Servers.delayEvery();
    private final long delayMs = Servers.delayMs();

    @BeforeAll
    static void startServers() {
        for (String name : Servers.NAMES) {
            if (Servers.external()) {
                TARGETS.put(name, new Target(name, Servers.externalUrl(name)));
            } else {
                ServerProcess process = Servers.start(name);
                STARTED.add(process);
                TARGETS.put(name, new Target(name, process.baseUrl()));
            }
        }
    }

    @AfterAll
    static void stopServers() {
        STARTED.forEach(ServerProcess::close);
        STARTED.forEach(process -> System.out.println(process.output()));
    }

    static Stream<Target> targets() {
        return TARGETS.values().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void servesThePageFromMemory(Target target) {
        Response response = target.get("/");
        response.then()
                .statusCode(200)
                .header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Length", String.valueOf(HELLO.length))
                .header("Transfer-Encoding", nullValue());
        assertArrayEquals(HELLO, response.asByteArray(), "body is hello.html, byte for byte");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void headAnswersLikeGetWithoutABody(Target target) {
        Response response = given().baseUri(target.baseUrl()).when().head("/");
        response.then()
                .statusCode(200)
                .header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Length", String.valueOf(HELLO.length));
        assertEquals(0, response.asByteArray().length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void delaysExactlyEveryNthRequest(Target target) {
        target.alignSoNextRequestIs(1, delayEvery);
        for (int i = 1; i < delayEvery; i++) {
            Target.Timed fast = target.timedGet();
            fast.response().then().statusCode(200);
            assertTrue(fast.millis() < delayMs, "request " + i + " of the cycle was held " + fast.millis() + " ms");
        }
        Target.Timed delayed = target.timedGet();
        delayed.response().then().statusCode(200);
        assertArrayEquals(HELLO, delayed.response().asByteArray());
        assertTrue(
                delayed.millis() >= delayMs,
                "request " + delayEvery + " answered after only " + delayed.millis() + " ms");
        assertTrue(delayed.millis() < delayMs + 10_000, "request " + delayEvery + " took " + delayed.millis() + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void fastRequestsAreNotHeldUpByAPendingDelayedOne(Target target) throws Exception {
        target.alignSoNextRequestIs(delayEvery, delayEvery);
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Target.Timed> delayed = clients.submit(target::timedGet);
            target.awaitInFlight(1);
            List<Future<Target.Timed>> fast = new ArrayList<>();
            for (int i = 1; i < delayEvery; i++) {
                fast.add(clients.submit(target::timedGet));
            }
            for (Future<Target.Timed> f : fast) {
                Target.Timed answer = f.get(delayMs + 10_000, TimeUnit.MILLISECONDS);
                answer.response().then().statusCode(200);
                assertTrue(
                        answer.millis() < delayMs,
                        "a fast request waited " + answer.millis() + " ms behind the delayed one");
            }
            assertFalse(delayed.isDone(), "the delayed request finished before the fast ones");
            Target.Timed slow = delayed.get(delayMs + 10_000, TimeUnit.MILLISECONDS);
            slow.response().then().statusCode(200);
            assertTrue(slow.millis() >= delayMs, "the delayed request came after only " + slow.millis() + " ms");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void healthAndStatsAnswerAndAreNotCounted(Target target) {
        long before = target.requestsCounted();
        for (int i = 0; i < 25; i++) {
            target.get("/health")
                    .then()
                    .statusCode(200)
                    .contentType("application/json")
                    .body("status", equalTo("UP"));
            target.get("/stats").then().statusCode(200).contentType("application/json");
        }
        var stats = target.stats();
        assertAll(
                () -> assertEquals(before, stats.getLong("requests")),
                () -> assertEquals(target.name(), stats.getString("server")),
                () -> assertTrue(List.of("blocking", "timer", "virtual").contains(stats.getString("strategy"))),
                () -> assertEquals(stats.getLong("requests") / delayEvery, stats.getLong("delayed")),
                () -> assertTrue(stats.getLong("inFlight") >= 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void statsNestTheProcessCost(Target target) {
        Map<String, Object> process = target.stats().getMap("process");
        assertEquals(
                Set.of(
                        "cpuMs",
                        "cpuUserMs",
                        "cpuSystemMs",
                        "threads",
                        "threadsPeak",
                        "heapUsedBytes",
                        "heapCommittedBytes",
                        "heapAfterGcBytes",
                        "gcCount",
                        "gcPauseMs",
                        "jitMs",
                        "rssBytes",
                        "rssPeakBytes",
                        "voluntaryContextSwitches",
                        "involuntaryContextSwitches"),
                process.keySet());
        long threads = ((Number) process.get("threads")).longValue();
        long heapUsed = ((Number) process.get("heapUsedBytes")).longValue();
        assertAll(
                process.toString(),
                () -> assertTrue(((Number) process.get("cpuMs")).longValue() > 0),
                () -> assertTrue(threads > 0),
                () -> assertTrue(((Number) process.get("threadsPeak")).longValue() >= threads),
                () -> assertTrue(heapUsed > 0),
                () -> assertTrue(((Number) process.get("heapCommittedBytes")).longValue() >= heapUsed),
                () -> assertTrue(((Number) process.get("gcPauseMs")).longValue() >= 0),
                () -> assertTrue(
                        ((Number) process.get("jitMs")).longValue() > 0, "a server that has answered has compiled"));
        if (System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")) {
            // the servers run here, or in Linux containers: /proc and getrusage (the jars' Java 22+ classes)
            for (String linuxOnly : List.of(
                    "cpuUserMs",
                    "cpuSystemMs",
                    "rssBytes",
                    "rssPeakBytes",
                    "voluntaryContextSwitches",
                    "involuntaryContextSwitches")) {
                assertTrue(process.get(linuxOnly) instanceof Number, linuxOnly + " in " + process);
            }
        }
    }

    /** /stats?threads adds the bill by thread class, Linux only: each class of the server's table, then exited. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void statsWithThreadsBillTheThreadClasses(Target target) {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "/proc is Linux's");
        target.get("/").then().statusCode(200);
        Map<String, Object> process = target.get("/stats?threads")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("process");
        assertFalse(target.stats().getMap("process").containsKey("threadClasses"), "only when asked");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> classes = (Map<String, Map<String, Object>>) process.get("threadClasses");
        assertNotNull(classes, process.toString());
        assertEquals(List.of("io", "worker", "carrier", "gc", "jit", "other", "exited"), List.copyOf(classes.keySet()));
        assertAll(
                classes.toString(),
                () -> assertTrue(
                        ((Number) classes.get("io").get("threads")).intValue() >= 2, "an I/O thread and the acceptor"),
                () -> assertTrue(((Number) classes.get("io").get("cpuMs")).doubleValue() > 0, "it answered"),
                () -> assertTrue(((Number) classes.get("jit").get("threads")).intValue() >= 1, "the JIT's compilers"),
                () -> assertTrue(
                        ((Number) classes.get("gc").get("threads")).intValue() >= 1, "the collector's threads"),
                () -> assertEquals(
                        Set.of(
                                "cpuMs",
                                "userMs",
                                "systemMs",
                                "runQueueWaitMs",
                                "voluntaryContextSwitches",
                                "involuntaryContextSwitches",
                                "threads"),
                        classes.get("worker").keySet()));
    }

    /**
     * /stats and /stats?threads are what docs/reference/stats.schema.json says: a property added to either, or dropped,
     * without the schema following fails here.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void statsMatchTheirSchema(Target target) {
        target.get("/").then().statusCode(200);
        for (String path : List.of("/stats", "/stats?threads")) {
            String body = target.get(path).then().statusCode(200).extract().asString();
            List<String> errors = StatsSchema.errors(body);
            assertTrue(
                    errors.isEmpty(),
                    target.name() + " " + path + " does not match " + StatsSchema.PATH + ":\n  "
                            + String.join("\n  ", errors) + "\nin " + body);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void statsCountGetAndHeadToTheRoot(Target target) {
        long before = target.requestsCounted();
        target.get("/").then().statusCode(200);
        given().baseUri(target.baseUrl()).head("/").then().statusCode(200);
        assertEquals(before + 2, target.requestsCounted());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void otherPathsAreNotFound(Target target) {
        for (String path : List.of("/index.html", "/hello", "/stats/x", "/health/", "/%2e%2e/etc/passwd")) {
            target.get(path).then().statusCode(404);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void otherMethodsOnTheRootAreNotAllowedAndNotCounted(Target target) {
        long before = target.requestsCounted();
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            given().baseUri(target.baseUrl())
                    .request(method, "/")
                    .then()
                    .statusCode(405)
                    .header("Allow", "GET, HEAD");
        }
        assertEquals(before, target.requestsCounted());
    }

    @ParameterizedTest(name = "{0} {1}")
    @ValueSource(strings = {"GET /", "HEAD /", "GET /nope", "POST /", "DELETE /", "GET /health", "GET /%25zz"})
    void bothServersGiveTheSameAnswer(String request) {
        String[] parts = request.split(" ");
        Map<String, Response> answers = new LinkedHashMap<>();
        TARGETS.forEach((name, target) -> answers.put(
                name,
                given().baseUri(target.baseUrl()).urlEncodingEnabled(false).request(parts[0], parts[1])));
        Response undertow = answers.get("undertow");
        Response vertx = answers.get("vertx");
        assertAll(
                request,
                () -> assertEquals(undertow.statusCode(), vertx.statusCode(), "status"),
                () -> assertEquals(undertow.header("Content-Type"), vertx.header("Content-Type"), "Content-Type"),
                () -> assertEquals(undertow.header("Content-Length"), vertx.header("Content-Length"), "Content-Length"),
                () -> assertEquals(undertow.header("Allow"), vertx.header("Allow"), "Allow"),
                () -> assertArrayEquals(undertow.asByteArray(), vertx.asByteArray(), "body"));
    }

    @Test
    void statsNameEachServer() {
        TARGETS.forEach((name, target) -> assertEquals(name, target.stats().getString("server")));
    }
}
