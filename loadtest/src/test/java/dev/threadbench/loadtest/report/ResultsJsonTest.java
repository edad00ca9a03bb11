package dev.threadbench.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ResultsFixtures;
import dev.threadbench.loadtest.model.SweepFixtures;
import dev.threadbench.loadtest.model.SweepPair;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class ResultsJsonTest {

    @TempDir
    Path dir;

    @Test
    void theShapeTheIssueAsksFor() throws Exception {
        JsonNode json = new ObjectMapper().readTree(ResultsJson.toJson(ResultsFixtures.results()));
        assertShape(json);
    }

    /** Shared with the real compare run's test. */
    public static void assertShape(JsonNode json) {
        JsonNode environment = json.get("environment");
        for (String key : List.of("jdk", "os", "cpuModel", "cores", "undertowVersion", "vertxVersion", "date")) {
            assertTrue(environment.hasNonNull(key), "environment." + key);
        }
        assertTrue(environment.get("cores").isInt());
        assertTrue(json.get("runs").isArray() && !json.get("runs").isEmpty());
        for (JsonNode run : json.get("runs")) {
            for (String key : List.of(
                    "server",
                    "strategy",
                    "concurrency",
                    "engine",
                    "requests",
                    "failed",
                    "durationSeconds",
                    "requestsPerSecond",
                    "bound",
                    "latencyMs",
                    "serverCpuSeconds",
                    "serverPeakRssMb",
                    "generatorBound",
                    "reconciliation",
                    "percentiles",
                    "cost")) {
                assertTrue(run.has(key), "run." + key + " in " + run);
            }
            for (String key : List.of("total", "non2xx", "timeout", "refused", "reset", "shortBody", "other")) {
                assertTrue(run.get("failed").get(key).isIntegralNumber(), "failed." + key);
            }
            for (String key : List.of("p50", "p90", "p99", "p999", "max")) {
                assertTrue(run.get("latencyMs").has(key), "latencyMs." + key);
            }
            for (String key : List.of("serverCounted", "clientAnswered", "difference", "verdict")) {
                assertTrue(run.get("reconciliation").has(key), "reconciliation." + key);
            }
            assertTrue(run.get("requestsPerSecond").isNumber());
            assertTrue(run.get("percentiles").isArray());
        }
    }

    @Test
    void eachRunsSecondBySecondSeriesGoIntoResultsJsonAndComeBack() throws Exception {
        Results results = ResultsFixtures.overTime();
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        JsonNode timeline =
                new ObjectMapper().readTree(file.toFile()).get("runs").get(0).get("timeline");
        assertEquals(10.0, timeline.get("measureStartSecond").asDouble());
        assertEquals(26.0, timeline.get("measureEndSecond").asDouble());
        JsonNode second = timeline.get("generatorSeconds").get(12);
        assertEquals(12, second.get("second").asInt());
        for (String key : List.of("requests", "failed", "p50Ms", "p99Ms", "maxMs")) {
            assertTrue(second.has(key), "generator second." + key + " in " + second);
        }
        assertEquals(2041.0, second.get("p99Ms").asDouble());
        JsonNode sample = timeline.get("serverSamples").get(24);
        assertEquals(12.0, sample.get("second").asDouble());
        assertEquals(14.0, sample.get("gcPauseMs").asDouble());
        for (String key : List.of("cpuShare", "threads")) {
            assertTrue(sample.has(key), "server sample." + key);
        }
        assertEquals(results, ResultsJson.read(file), "and read back the same");
    }

    @Test
    void writesAndReadsBackTheSame() {
        Results results = ResultsFixtures.results();
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        assertEquals(results, ResultsJson.read(file));
    }

    @Test
    void aGzippedFileReadsTheSameAndOneThatIsNotGzipSaysSo() throws Exception {
        Results results = ResultsFixtures.results();
        Path gzipped = dir.resolve("sweep.json.gz");
        try (var out = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            out.write(ResultsJson.toJson(results).getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(results, ResultsJson.read(gzipped));
        Path plain = Files.writeString(dir.resolve("plain.json.gz"), ResultsJson.toJson(results));
        UsageException e = assertThrows(UsageException.class, () -> ResultsJson.read(plain));
        assertTrue(e.getMessage().startsWith(plain + ": cannot read"), e.getMessage());
    }

    @Test
    void openModelRunsKeepTheirRecordAndClosedLoopsHaveNone() throws Exception {
        Results results = ResultsFixtures.openModel();
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        JsonNode run = new ObjectMapper().readTree(file.toFile()).get("runs").get(0);
        assertEquals("open", run.get("open").get("model").asText());
        assertEquals(2500.0, run.get("open").get("targetRate").asDouble());
        assertEquals(results, ResultsJson.read(file));
        ResultsJson.write(ResultsFixtures.results(), file);
        assertTrue(new ObjectMapper()
                .readTree(file.toFile())
                .get("runs")
                .get(0)
                .get("open")
                .isNull());
    }

    @Test
    void aRunFromAgentsKeepsEachAgentsShareAndOneGeneratorsHasNone() throws Exception {
        Results results = ResultsFixtures.fromAgents();
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        JsonNode run = new ObjectMapper().readTree(file.toFile()).get("runs").get(0);
        assertEquals("cluster", run.get("engine").asText());
        assertEquals(List.of("agent1", "agent2"), run.get("agents").findValuesAsText("name"));
        for (String field : List.of(
                "name",
                "host",
                "connections",
                "requests",
                "failed",
                "requestsPerSecond",
                "p99Ms",
                "generatorCpuSeconds",
                "generatorCpuShare",
                "answered")) {
            assertTrue(run.get("agents").get(0).has(field), field);
        }
        assertEquals(3.2, run.at("/coordination/startSkewMs").asDouble());
        assertEquals(results, ResultsJson.read(file));
        ResultsJson.write(ResultsFixtures.results(), file);
        assertTrue(new ObjectMapper()
                .readTree(file.toFile())
                .get("runs")
                .get(0)
                .get("agents")
                .isNull());
    }

    @Test
    void serverFiguresCompareCouldNotReadStayNullThroughTheFile() throws Exception {
        Results results = ResultsFixtures.resultsOfRunningServers();
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertShape(json);
        for (JsonNode run : json.get("runs")) {
            assertTrue(
                    run.get("serverCpuSeconds").isNull()
                            && run.get("serverPeakRssMb").isNull(),
                    run.toString());
            assertTrue(run.get("serverExitCode").isNull(), run.toString());
        }
        assertEquals(results, ResultsJson.read(file));
    }

    @Test
    void aFileFromBeforeRoundsAndPinningStillReadsAndRenders() throws Exception {
        Path old = dir.resolve("results.json");
        try (var in = ResultsJsonTest.class.getResourceAsStream("results-before-rounds.json")) {
            Files.write(old, in.readAllBytes());
        }
        Results results = ResultsJson.read(old);
        assertEquals(4, results.runs().size());
        assertEquals(1, results.settings().roundCount());
        assertTrue(results.runs().stream()
                .allMatch(r -> r.round() == 0 && r.serverSide().cpuMicrosPerRequest() == null));
        String table = ConsoleTable.render(results);
        assertTrue(table.contains("CPU sets not recorded"), table);
        assertTrue(
                table.split("\n")[2].matches(
                        "1000\\s+blocking\\s+undertow\\s+embedded\\s+1\\s+4,950\\s+5,000\\s+99\\.0%.*"),
                table);
        assertTrue(HtmlReport.render(results).contains("\"rounds\":1"));
    }

    @Test
    void aSweepsPairsGoIntoATopLevelSweepSectionAndComeBack() throws Exception {
        Results results = SweepPairs.withSweep(
                SweepFixtures.sweep(List.of(new Results.Skipped(5000, "the descriptor limit (ulimit -n) is 4,096"))));
        Path file = dir.resolve("results.json");
        ResultsJson.write(results, file);
        JsonNode sweep = new ObjectMapper().readTree(file.toFile()).get("sweep");
        assertEquals(3, sweep.size());
        for (JsonNode pair : sweep) {
            for (String key :
                    List.of("server", "strategy", "breakingPoint", "heldAt", "notHeldAt", "limit", "limitDetail")) {
                assertTrue(pair.has(key), key + " in " + pair);
            }
        }
        JsonNode blocking = sweep.get(0);
        assertEquals(
                List.of("undertow", "blocking", "1500", "1000", "2000", "server"),
                List.of(
                        blocking.get("server").asText(),
                        blocking.get("strategy").asText(),
                        blocking.get("breakingPoint").asText(),
                        blocking.get("heldAt").asText(),
                        blocking.get("notHeldAt").asText(),
                        blocking.get("limit").asText()));
        JsonNode timer = sweep.get(1);
        assertTrue(timer.get("breakingPoint").isNull() && timer.get("notHeldAt").isNull(), timer.toString());
        assertEquals("machine", timer.get("limit").asText());
        assertEquals(5000, timer.get("limitAt").asInt());
        JsonNode vertx = sweep.get(2);
        assertTrue(
                vertx.get("breakingPoint").isNull(),
                "the generator's limit is not the server's breaking point: " + vertx);
        assertEquals("generator", vertx.get("limit").asText());
        assertEquals(results, ResultsJson.read(file), "and read back the same");
        assertTrue(ConsoleTable.render(ResultsJson.read(file)).contains("1,500 (held 1,000, not held 2,000)"));
        ResultsJson.write(SweepPairs.withSweep(ResultsFixtures.results()), file);
        assertTrue(new ObjectMapper().readTree(file.toFile()).get("sweep").isNull(), "a plain compare has none");
    }

    @Test
    void aSweepSectionWrittenBeforeTheLimitEnumAndTheEndsStillReads() throws Exception {
        Results results = SweepPairs.withSweep(SweepFixtures.sweep(List.of()));
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(ResultsJson.toJson(results));
        for (JsonNode pair : json.get("sweep")) {
            ((ObjectNode) pair).remove("ends");
        }
        for (JsonNode run : json.get("runs")) {
            ((ObjectNode) run).remove(List.of("phase", "workerPoolShare"));
        }
        ((ObjectNode) json.get("sweep").get(0)).put("limit", "server");
        ((ObjectNode) json.get("sweep").get(2)).put("limit", "generator");
        Path old = dir.resolve("results.json");
        Files.writeString(old, json.toPrettyString());
        List<SweepPair> pairs = ResultsJson.read(old).sweep();
        assertEquals(
                List.of(Limit.SERVER, Limit.NONE, Limit.GENERATOR),
                pairs.stream().map(SweepPair::limit).toList());
        assertEquals(null, pairs.getFirst().ends());
        assertEquals(results.sweep(), pairs);
        ((ObjectNode) json.get("sweep").get(0)).put("limit", "unexplained");
        Files.writeString(old, json.toPrettyString());
        assertEquals(
                Limit.UNEXPLAINED, ResultsJson.read(old).sweep().getFirst().limit(), "written as the lowercase name");
        ((ObjectNode) json.get("sweep").get(0)).put("limit", "cosmic rays");
        Files.writeString(old, json.toPrettyString());
        UsageException bad = assertThrows(UsageException.class, () -> ResultsJson.read(old));
        assertTrue(bad.getMessage().startsWith(old + ": not a results file from loadtest compare"), bad.getMessage());
    }

    @Test
    void aSweepSectionAnOlderRuleWroteIsKeptInTheFileButItsRunsAreReadByThisBuildsRule() throws Exception {
        Results results = SweepPairs.withSweep(SweepFixtures.sweep(List.of()));
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(ResultsJson.toJson(results));
        ((ObjectNode) json.get("sweep").get(0)).put("heldAt", 250);
        Path old = dir.resolve("results.json");
        Files.writeString(old, json.toPrettyString());
        Results read = ResultsJson.read(old);
        assertEquals(250, read.sweep().getFirst().heldAt(), "the file's own section, as written");
        assertEquals(results.sweep(), SweepPairs.of(read), "its runs read by this build's rule");
    }

    @Test
    void aSweepFileFromBeforeTheSectionStillReadsItsPairsComputedFromItsRuns() throws Exception {
        Results results = SweepFixtures.sweep(List.of());
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(ResultsJson.toJson(SweepPairs.withSweep(results)));
        json.remove("sweep");
        ((ObjectNode) json.get("settings")).remove("sweepResolution");
        Path old = dir.resolve("results.json");
        Files.writeString(old, json.toPrettyString());
        Results read = ResultsJson.read(old);
        assertEquals(null, read.sweep());
        assertEquals(
                SweepPairs.withSweep(results).sweep(), SweepPairs.of(read), "computed from its runs as compare would");
        String table = ConsoleTable.render(read);
        assertTrue(table.contains("1,500 (held 1,000, not held 2,000)"), table);
        assertTrue(HtmlReport.render(read).contains("\"readings\":[\"1,500 (held 1,000, not held 2,000)\""));
    }

    @Test
    void badFilesAreOneLine() throws Exception {
        UsageException missing = assertThrows(UsageException.class, () -> ResultsJson.read(dir.resolve("nope.json")));
        assertEquals(dir.resolve("nope.json") + ": no such file", missing.getMessage());
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "{not json");
        UsageException bad = assertThrows(UsageException.class, () -> ResultsJson.read(garbage));
        assertTrue(
                bad.getMessage().startsWith(garbage + ": not a results file from loadtest compare"), bad.getMessage());
        assertTrue(!bad.getMessage().contains("\n"));
        Path other = Files.writeString(dir.resolve("other.json"), "{\"name\": 1}");
        assertThrows(UsageException.class, () -> ResultsJson.read(other));
    }

    @Test
    void reconciliationVerdicts() {
        assertEquals("exact", Results.Reconciliation.of(100, 100, 0).verdict().id());
        assertEquals(
                "explained", Results.Reconciliation.of(103, 100, 5).verdict().id());
        assertEquals(
                "mismatch", Results.Reconciliation.of(106, 100, 5).verdict().id());
        assertEquals(
                "mismatch",
                Results.Reconciliation.of(99, 100, 5).verdict().id(),
                "the client got an answer the server never counted");
    }
}
