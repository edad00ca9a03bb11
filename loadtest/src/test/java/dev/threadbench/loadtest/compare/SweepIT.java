package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.report.JsonSchemas;
import dev.threadbench.loadtest.report.ResultsJsonTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny compare --sweep against the packaged Undertow jar: two strategies at two small concurrencies, seconds each.
 */
class SweepIT {

    @TempDir
    Path dir;

    @Test
    void aSweepWritesEachRunsServerCostThePairsTheirCurvesAndTheVerdict() throws Exception {
        Path out = dir.resolve("sweep");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--sweep",
                "--undertow-jar",
                ServersIT.jar("undertow").toString(),
                "--servers",
                "undertow",
                "--strategies",
                "blocking,timer",
                "--concurrency",
                "10,20",
                "--repeat",
                "1",
                "--rampup",
                "0",
                "--warmup",
                "1",
                "--duration",
                "2",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        assertTrue(
                ran.out().contains("  [4/16, "),
                "a progress line per point, the narrowing in (and its ends measured again)"
                        + " counted at most until known: " + ran.out());

        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        ResultsJsonTest.assertShape(json);
        JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "the sweep's results.json");
        assertTrue(json.get("settings").get("sweep").asBoolean());
        assertTrue(
                json.get("skipped").isArray() && json.get("skipped").isEmpty(),
                json.get("skipped").toString());
        assertEquals(List.of("10", "20", "10", "20"), json.get("runs").findValuesAsText("concurrency"));
        for (JsonNode run : json.get("runs")) {
            JsonNode cost = run.get("cost");
            assertTrue(cost.get("cpuMicrosPerRequest").asDouble() > 0, run.toString());
            assertTrue(
                    cost.get("cpuUserMicrosPerRequest").isNumber()
                            && cost.get("cpuSystemMicrosPerRequest").isNumber(),
                    cost.toString());
            assertTrue(cost.get("peakThreads").asLong() > 1, cost.toString());
            assertTrue(cost.get("peakRssMb").asDouble() > 10, cost.toString());
            assertTrue(cost.get("gcPauseMsPerSecond").asDouble() >= 0, cost.toString());
            assertTrue(
                    cost.get("contextSwitchesPerRequest").asDouble() > 0,
                    "Linux: from the server's getrusage: " + cost);
            assertTrue(cost.get("samples").asInt() >= 2, "the window's edges at least: " + cost);
            assertEquals(
                    cost.get("cpuSeconds").asDouble(),
                    run.get("serverCpuSeconds").asDouble(),
                    "one source: the server's /stats");
        }

        assertTrue(ran.out().contains("\nsweep: memory per 1,000 connections"), ran.out());
        assertTrue(ran.out().matches("(?s).*\nundertow\\s+blocking\\s+\\S+\\s+\\S+\\s+\\S+.*\\s+20\\s+.*"), ran.out());
        assertTrue(
                ran.out()
                        .contains("  undertow/blocking holds the bound (in every round, every reading pooled:"
                                + " a round at >= 95 % of the bound without a failed request) "),
                ran.out());
        assertTrue(ran.out().contains("  On undertow at 20 connections: "), ran.out());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(
                html.contains("\"pairs\":[{\"server\":\"undertow\",\"strategy\":\"blocking\""),
                "the pairs in the page");
        assertTrue(html.contains("curve('curve-threads', 'Peak threads'"), "the curves");
    }

    /**
     * Undertow's default strategy, blocking, with 40 workers holds the bound while every connection's delayed request
     * finds a worker and not past it: at the bound each connection spends nearly all its time in a delayed request, so
     * 40 workers hold 95 % of it up to about 42 connections (the 9 quick requests of each 10 add a little to each
     * cycle), and at 45 at most 40/45 of it. Between the grid's 20 (held) and 80 (not held, half the bound) the sweep
     * narrows in, each step a server started for it and warmed at its own concurrency first, until the first not held
     * is within 25 % of the last held, then measures both ends again the same way. --strategies default: the runs carry
     * the strategy the server reports.
     */
    @Test
    void aSweepNarrowsInOnTheKnownBreakingPointOfFortyWorkers() throws Exception {
        Path out = dir.resolve("narrowed");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--sweep",
                "--undertow-jar",
                ServersIT.jar("undertow").toString(),
                "--servers",
                "undertow",
                "--strategies",
                "default",
                "--server-args",
                "--workers 40",
                "--concurrency",
                "20,80",
                "--resolution",
                "25%",
                "--repeat",
                "1",
                "--rampup",
                "0",
                "--warmup",
                "1",
                "--duration",
                "2",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        assertTrue(
                ran.out()
                        .contains("\nnarrowing in, step 1 (until the first not held is within 25 % of the last held):"
                                + " undertow/blocking at 50 (held 20, not held 80)\n"),
                ran.out());
        assertTrue(
                ran.out().contains("  warming its JIT first: 20 s at the run's own concurrency before the window"),
                "each step's fresh server is warmed at its own concurrency: " + ran.out());

        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "the narrowed sweep's results.json");
        List<Integer> concurrencies = json.get("runs").findValues("concurrency").stream()
                .map(JsonNode::asInt)
                .toList();
        assertEquals(List.of(20, 80, 50), concurrencies.subList(0, 3), "the grid, then the first midpoint");
        assertTrue(concurrencies.size() >= 4, "narrowed in further: " + concurrencies);
        assertEquals(0.25, json.get("settings").get("sweepResolution").asDouble());
        JsonNode sweep = json.get("sweep");
        assertEquals(1, sweep.size(), sweep.toString());
        JsonNode pair = sweep.get(0);
        assertEquals("undertow", pair.get("server").asText());
        assertEquals("blocking", pair.get("strategy").asText());
        int heldAt = pair.get("heldAt").asInt();
        int notHeldAt = pair.get("notHeldAt").asInt();
        assertTrue(heldAt >= 20 && heldAt < notHeldAt && notHeldAt <= 80, pair.toString());
        assertTrue(notHeldAt - heldAt <= 0.25 * heldAt, "within the resolution: " + pair);
        assertTrue(
                heldAt <= 44 && notHeldAt >= 41, "the interval contains the known breaking point, about 42: " + pair);
        assertEquals("server", pair.get("limit").asText(), "40 workers, not the generator: " + pair);
        assertTrue(
                pair.get("limitDetail")
                        .asText()
                        .startsWith("the server's limit (its worker pool held by delayed requests in most rounds not"
                                + " held, in a minority at the held end;"),
                pair.toString());
        assertEquals(
                List.of("ends", "ends"),
                json.get("runs").findValuesAsText("phase").subList(concurrencies.size() - 2, concurrencies.size()),
                "both ends measured again");
        assertEquals(List.of(heldAt, notHeldAt), concurrencies.subList(concurrencies.size() - 2, concurrencies.size()));
        int breakingPoint = pair.get("breakingPoint").asInt();
        assertTrue(heldAt <= breakingPoint && breakingPoint <= notHeldAt, pair.toString());
        assertTrue(
                ran.out()
                        .matches(String.format(
                                "(?s).*\nundertow\\s+blocking\\s.*\\s%,d \\(held %,d, not held %,d\\)\\s+server\n.*",
                                breakingPoint, heldAt, notHeldAt)),
                ran.out());
    }
}
