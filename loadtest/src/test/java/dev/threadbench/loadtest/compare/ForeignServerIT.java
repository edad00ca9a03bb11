package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.report.JsonSchemas;
import dev.threadbench.loadtest.server.ProjectLayout;
import dev.threadbench.loadtest.server.StartedServer;
import dev.threadbench.process.ServerProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * A server this project did not write, under the workload contract (docs/metrics.md): a few lines of Python asyncio
 * (src/test/resources/foreign-server), compared with both jars in one short run through --targets, its cost columns
 * n/a. The same run checks what issue 57 adds to compare: each run's .hlog reads back, its measured intervals giving
 * results.json's p99; and --junit with a limit every cell breaches.
 */
class ForeignServerIT {

    private static final String DELAY_EVERY = "10";
    private static final String DELAY_MS = "200";

    @TempDir
    Path dir;

    @Test
    void anAsyncioServerIsComparedWithBothJarsWithItsCostNa() throws Exception {
        assumeTrue(onPath("python3"), "python3 is not on PATH: the foreign server is a Python script");
        Path script = Path.of(ForeignServerIT.class
                .getResource("/foreign-server/asyncio_server.py")
                .toURI());
        Process python = new ProcessBuilder(
                        "python3",
                        script.toString(),
                        ProjectLayout.root().resolve("hello.html").toString(),
                        "--delay-every",
                        DELAY_EVERY,
                        "--delay-ms",
                        DELAY_MS)
                .redirectError(dir.resolve("asyncio.log").toFile())
                .start();
        try (StartedServer undertow = start("undertow");
                StartedServer vertx = start("vertx")) {
            String listening = new BufferedReader(
                            new InputStreamReader(python.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertTrue(listening != null && listening.startsWith("listening on "), "asyncio: " + listening);
            String asyncio = "http://127.0.0.1:" + listening.substring("listening on ".length());
            Path out = dir.resolve("results");
            Path junit = out.resolve("junit.xml");
            MainTest.Ran ran = MainTest.run(
                    "compare",
                    "--targets",
                    "undertow=" + undertow.base() + ",vertx=" + vertx.base() + ",asyncio=" + asyncio,
                    "--quick",
                    "--repeat",
                    "1",
                    "--rampup",
                    "1",
                    "--concurrency",
                    "4",
                    "--delay-every",
                    DELAY_EVERY,
                    "--delay-ms",
                    DELAY_MS,
                    "--no-pin",
                    "--fail-if",
                    "p99>150ms",
                    "--junit",
                    junit.toString(),
                    "--out",
                    out.toString());
            System.out.println(ran.out());

            assertEquals(3, ran.code(), "the 200 ms delay is past the limit of 150 ms: " + ran.out() + ran.err());
            String asyncioRow = ran.out()
                    .lines()
                    .filter(line -> line.matches("4\\s+-\\s+asyncio\\s.*"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no row for asyncio in\n" + ran.out()));
            assertTrue(asyncioRow.contains(" n/a "), "its server CPU n/a: " + asyncioRow);
            JsonNode json =
                    new ObjectMapper().readTree(out.resolve("results.json").toFile());
            JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "results.json with a server without /stats");
            JsonNode runs = json.get("runs");
            assertEquals(List.of("undertow", "vertx", "asyncio"), runs.findValuesAsText("server"));
            for (JsonNode run : runs) {
                assertTrue(run.get("requests").asLong() > 0, run.toString());
                assertEquals(0, run.get("failed").get("total").asLong(), run.toString());
                double p99 = run.get("latencyMs").get("p99").asDouble();
                String strategy =
                        run.hasNonNull("strategy") ? run.get("strategy").asText() : "default";
                double fromLog = measuredP99Ms(
                        out.resolve("hlog").resolve(run.get("server").asText() + "-" + strategy + "-4.hlog"));
                System.out.printf(
                        "%s: results.json p99 %.3f ms, its .hlog's measured intervals %.3f ms%n",
                        run.get("server").asText(), p99, fromLog);
                assertEquals(p99, fromLog, p99 * 0.01 + 0.01, "within the per-second histograms' 2 digits");
            }
            Element suite = (Element) DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(junit.toFile())
                    .getElementsByTagName("testsuite")
                    .item(0);
            assertEquals("3", suite.getAttribute("tests"));
            assertEquals("3", suite.getAttribute("failures"));
            System.out.println(Files.readString(junit));
        } finally {
            python.destroy();
            python.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private StartedServer start(String name) {
        return StartedServer.start(
                ServerProcess.Launch.logged(name, ServersIT.jar(name), List.of("-Xmx256m"), dir.resolve(name + ".log")),
                List.of("--delay-every", DELAY_EVERY, "--delay-ms", DELAY_MS),
                null);
    }

    /** The p99 of the intervals tagged measure, merged, in ms. */
    static double measuredP99Ms(Path hlog) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        Histogram measured = null;
        List<String> tags = new ArrayList<>();
        for (EncodableHistogram interval = reader.nextIntervalHistogram();
                interval != null;
                interval = reader.nextIntervalHistogram()) {
            tags.add(interval.getTag());
            if ("measure".equals(interval.getTag())) {
                if (measured == null) {
                    measured = ((Histogram) interval).copy();
                } else {
                    measured.add((Histogram) interval);
                }
            }
        }
        assertTrue(measured != null, hlog + ": no measured interval in " + tags);
        assertTrue(tags.contains("warmup"), tags.toString());
        return measured.getValueAtPercentile(99) / 1000.0;
    }

    private static boolean onPath(String command) {
        for (String path : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(path, command))) {
                return true;
            }
        }
        return false;
    }
}
