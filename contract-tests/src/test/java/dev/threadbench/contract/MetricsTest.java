package dev.threadbench.contract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadbench.process.ServerProcess;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GET /metrics on both servers: Prometheus's text format 0.0.4 as Prometheus's own checker, {@code promtool check
 * metrics} (Debian's prometheus package), reads it, with the counters /stats keeps.
 */
class MetricsTest {

    private static final Map<String, Target> TARGETS = new LinkedHashMap<>();
    private static final List<ServerProcess> STARTED = new ArrayList<>();

    @BeforeAll
    static void startServers() {
        for (String name : Servers.NAMES) {
            if (Servers.external()) {
                TARGETS.put(name, new Target(name, Servers.externalUrl(name)));
            } else {
                ServerProcess process = Servers.start(name, "--delay-ms", "1");
                STARTED.add(process);
                TARGETS.put(name, new Target(name, process.baseUrl()));
            }
        }
    }

    @AfterAll
    static void stopServers() {
        STARTED.forEach(ServerProcess::close);
    }

    static Stream<Target> targets() {
        return TARGETS.values().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void metricsAreThePrometheusTextOfTheStatsCounters(Target target) {
        for (int i = 0; i < 10; i++) {
            target.get("/").then().statusCode(200);
        }
        long requests = target.requestsCounted();
        Response response = target.get("/metrics");
        String text = response.asString();
        assertAll(
                text,
                () -> assertEquals(200, response.statusCode()),
                () -> assertEquals("text/plain; version=0.0.4; charset=utf-8", response.contentType()),
                () -> assertEquals(requests, sample(text, "threadbench_requests_total"), "as /stats counted"),
                () -> assertEquals(requests / Servers.delayEvery(), sample(text, "threadbench_delayed_requests_total")),
                () -> assertTrue(text.contains("# TYPE process_cpu_seconds_total counter\n")),
                () -> assertTrue(text.contains("threadbench_info{server=\"" + target.name() + "\",strategy=\"")));
        if (System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")) {
            assertAll(
                    () -> assertTrue(
                            sample(text, "threadbench_thread_cpu_seconds_total{class=\"io\"}") > 0, "it served"),
                    () -> assertTrue(text.contains("threadbench_thread_run_queue_wait_seconds_total{class=\"other\"}")),
                    () -> assertTrue(sample(text, "process_resident_memory_bytes") > 0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void promtoolChecksTheMetrics(Target target) throws IOException, InterruptedException {
        assumeTrue(
                onPath("promtool"),
                "promtool is not on PATH: apt-get install prometheus (Debian's package) to run this check");
        String text = target.get("/metrics").then().statusCode(200).extract().asString();
        Process check = new ProcessBuilder("promtool", "check", "metrics")
                .redirectErrorStream(true)
                .start();
        try (OutputStream in = check.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        String verdict = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, check.exitValue(), "promtool check metrics: " + verdict + "\non:\n" + text);
        assertEquals("", verdict.strip(), "promtool's lint");
    }

    /** The value of the sample line that starts with {@code series} and a space, as a double. */
    private static double sample(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1));
            }
        }
        throw new AssertionError("no sample " + series + " in:\n" + text);
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (new java.io.File(dir, command).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
