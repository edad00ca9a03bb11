package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.host.Affinity;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.host.CpuSet;
import dev.threadbench.loadtest.report.JsonSchemas;
import dev.threadbench.loadtest.report.ResultsJsonTest;
import dev.threadbench.loadtest.server.ProjectLayout;
import dev.threadbench.loadtest.server.StartedServer;
import dev.threadbench.process.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Short real runs of {@code run} and {@code compare} against both packaged server jars, at small
 * concurrency with a 200 ms delay so the suite stays fast.
 */
public class ServersIT {

    @TempDir
    Path dir;

    /** The packaged server jar the build passes in (failsafe's system property), or the default under the project. */
    public static Path jar(String server) {
        Path jar = Path.of(System.getProperty(
                server + ".jar", ProjectLayout.defaultJar(server).toString()));
        assertTrue(Files.isRegularFile(jar), "the " + server + " server jar is built before this test: " + jar);
        return jar;
    }

    /** The server on a free port, a delay of 200 ms every 10th request. */
    private StartedServer start(String name, String... options) {
        List<String> args = new ArrayList<>(List.of("--delay-every", "10", "--delay-ms", "200"));
        args.addAll(List.of(options));
        return StartedServer.start(
                ServerProcess.Launch.logged(name, jar(name), List.of("-Xmx256m"), dir.resolve(name + ".log")),
                args,
                null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"undertow", "vertx"})
    void runDrivesAPlanAndTheServerCountsExactlyItsRequests(String name) throws Exception {
        // no ramp-up, so every slot starts, and opens its connection, before the 400 iterations run out
        Path plan = Files.writeString(dir.resolve("plan.yml"), """
                concurrency: 20
                base: 'http://localhost:8080'
                iterations: 400
                rampup: 0
                plan:
                  - name: Fetch the page
                    request:
                      url: /
                """);
        try (StartedServer server = start(name)) {
            long before = server.stats().requests();
            MainTest.Ran ran = MainTest.run(
                    "run", "--plan", plan.toString(), "--base", server.base().toString(), "--quiet");
            assertEquals(0, ran.code(), ran.err());
            for (String line : List.of(
                    "Total requests            400",
                    "Successful requests       400",
                    "Failed requests           0",
                    "Connections opened        20",
                    "Requests per second ",
                    "99.9'th percentile ",
                    "90.0'th percentile ",
                    "Maximum time per request ")) {
                assertTrue(ran.out().contains(line), "'" + line + "' in\n" + ran.out());
            }
            assertEquals(400, server.idleStats(Duration.ofSeconds(5)).requests() - before);
            assertEquals(OptionalInt.of(0), server.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0");
        }
    }

    @Test
    void compareRunsBothServersAndReconcilesTheirCounts() throws Exception {
        Path out = dir.resolve("results");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--undertow-jar",
                jar("undertow").toString(),
                "--vertx-jar",
                jar("vertx").toString(),
                "--concurrency",
                "20",
                "--rampup",
                "1",
                "--warmup",
                "1",
                "--duration",
                "2",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--server-args",
                "--workers 64",
                "--work-us",
                "20",
                "--repeat",
                "1",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        assertTrue(ran.out().contains("server JVM options (both): -Xmx256m"), ran.out());
        assertTrue(ran.out().contains("server options (both): --workers 64 --work-us 20"), ran.out());
        assertTrue(
                ran.out().contains(" --delay-ms 200 --workers 64 --work-us 20\n"),
                "passed to each server: " + ran.out());
        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        ResultsJsonTest.assertShape(json);
        JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "compare's results.json");
        assertEquals(
                "--workers 64 --work-us 20",
                json.get("environment").get("serverArgs").asText());
        assertEquals(2, json.get("runs").size());
        for (JsonNode run : json.get("runs")) {
            assertEquals(20, run.get("concurrency").asInt());
            assertEquals(0, run.get("failed").get("total").asLong(), run.toString());
            assertEquals("exact", run.get("reconciliation").get("verdict").asText(), run.toString());
            assertEquals(1000.0, run.get("bound").asDouble());
            assertTrue(run.get("requestsPerSecond").asDouble() > 0);
            assertTrue(run.get("serverCpuSeconds").asDouble() > 0);
            assertTrue(run.get("serverPeakRssMb").asDouble() > 10);
            assertEquals(0, run.get("serverExitCode").asInt());
            assertEquals(20, run.get("connectionsOpened").asInt());
            // the run second by second: the generator's 1 s buckets from the load's start, the server's /stats samples
            JsonNode timeline = run.get("timeline");
            assertEquals(2.0, timeline.get("measureStartSecond").asDouble(), 1e-6, "after 1 s ramp-up and 1 s warm-up");
            assertEquals(4.0, timeline.get("measureEndSecond").asDouble(), 1e-6);
            long perSecond = 0;
            for (JsonNode second : timeline.get("generatorSeconds")) {
                perSecond += second.get("requests").asLong();
            }
            assertTrue(
                    timeline.get("generatorSeconds").size() >= 4, "a bucket for every second of the load: " + timeline);
            assertTrue(
                    perSecond > run.get("requests").asLong(),
                    "warm-up and drain besides the measured requests: " + perSecond);
            assertTrue(
                    timeline.get("serverSamples").size() >= 4,
                    "the server sampled every 500 ms: " + timeline.get("serverSamples"));
            assertTrue(
                    timeline.get("serverSamples").findValues("threads").stream().allMatch(t -> t.asLong() > 0),
                    timeline.toString());
        }
        assertEquals(List.of("undertow", "vertx"), json.get("runs").findValuesAsText("server"));
        assertTrue(Files.readString(out.resolve("report.html")).contains("echarts.init("));
        assertTrue(Files.exists(out.resolve("logs").resolve("undertow-default.log")));
    }

    @Test
    void compareRepeatedPinsServersAndGeneratorApartTakesTurnsAndShowsTheSpread() throws Exception {
        CpuSet before = Affinity.allowedCpus();
        Path out = dir.resolve("rounds");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--undertow-jar",
                jar("undertow").toString(),
                "--vertx-jar",
                jar("vertx").toString(),
                "--concurrency",
                "20",
                "--rampup",
                "1",
                "--warmup",
                "1",
                "--duration",
                "2",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--repeat",
                "2",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        ResultsJsonTest.assertShape(json);
        JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "compare's results.json");
        assertEquals(2, json.get("settings").get("rounds").asInt());

        JsonNode pinning = json.get("environment").get("cpuPinning");
        CpuPinning expected = CpuPinning.decide(new CpuPinning.Request(null, null, false, false));
        assertEquals(expected.record().note(), pinning.get("note").asText());
        if (expected.serversPinned()) {
            CpuSet.Halves halves = before.halves(Affinity::siblings);
            assertEquals(halves.server().toString(), pinning.get("serverCpus").asText());
            assertEquals(
                    halves.generator().toString(), pinning.get("generatorCpus").asText());
            assertTrue(ran.out().contains("CPUs: servers on " + halves.server() + " "), ran.out());
            assertTrue(
                    ran.out().contains("taskset -c " + halves.server() + " "),
                    "each server started through taskset: " + ran.out());
            assertTrue(
                    ran.out()
                            .contains(" -XX:ActiveProcessorCount="
                                    + halves.server().size() + " -Xmx256m -jar "),
                    ran.out());
        } else {
            assertTrue(pinning.get("serverCpus").isNull() && ran.out().contains("CPUs: not pinned ("), ran.out());
        }
        assertEquals(before, Affinity.allowedCpus(), "this JVM has its CPUs back");

        assertEquals(
                List.of("undertow", "vertx", "vertx", "undertow"),
                json.get("runs").findValuesAsText("server"),
                "turns");
        assertEquals(List.of("0", "0", "1", "1"), json.get("runs").findValuesAsText("round"));
        for (JsonNode run : json.get("runs")) {
            assertEquals("exact", run.get("reconciliation").get("verdict").asText(), run.toString());
            assertTrue(run.get("serverCpuMicrosPerRequest").asDouble() > 0, run.toString());
            assertTrue(
                    run.get("serverCpuShare").isNumber()
                            && run.get("generatorCpuShare").asDouble() > 0,
                    run.toString());
        }
        assertTrue(
                ran.out()
                        .matches("(?s).*\n20\\s+\\S+\\s+undertow\\s+embedded\\s+2\\s+"
                                + "[\\d,]+ \\([\\d,]+-[\\d,]+\\)\\s.*"),
                "the spread next to the requests/s: " + ran.out());
        assertTrue(ran.out().contains("verdict (" + Verdict.METHOD + "):\n  C=20 "), ran.out());
        assertTrue(Files.readString(out.resolve("report.html")).contains("\"n\":2"));
        for (String log :
                List.of("undertow-default-round1.log", "undertow-default-round2.log", "vertx-default-round2.log")) {
            assertTrue(Files.exists(out.resolve("logs").resolve(log)), log);
        }
    }

    @Test
    void compareTargetsDrivesServersAlreadyRunningAndLeavesThemRunning() throws Exception {
        try (StartedServer undertow = start("undertow", "--strategy", "virtual");
                StartedServer vertx = start("vertx")) {
            String targets = "undertow=" + undertow.base() + ",vertx=" + vertx.base();
            Path out = dir.resolve("results");
            MainTest.Ran ran = MainTest.run(
                    "compare",
                    "--targets",
                    targets,
                    "--strategies",
                    "default",
                    "--concurrency",
                    "20",
                    "--rampup",
                    "1",
                    "--warmup",
                    "1",
                    "--duration",
                    "2",
                    "--delay-every",
                    "10",
                    "--delay-ms",
                    "200",
                    "--repeat",
                    "1",
                    "--out",
                    out.toString());
            assertEquals(0, ran.code(), ran.out() + ran.err());
            assertTrue(ran.out().contains("undertow at " + undertow.base() + ": up, strategy virtual"), ran.out());
            assertFalse(ran.out().contains("server CPU n/a"), "their own /stats gives their cost: " + ran.out());
            assertFalse(ran.out().contains("SIGTERM"), ran.out());

            JsonNode json =
                    new ObjectMapper().readTree(out.resolve("results.json").toFile());
            ResultsJsonTest.assertShape(json);
            JsonSchemas.assertValid(JsonSchemas.RESULTS, json, "compare --targets' results.json");
            assertTrue(
                    json.get("environment").get("serverJvmOptions").isNull(),
                    "not known for servers compare did not start");
            assertEquals(List.of("undertow", "vertx"), json.get("runs").findValuesAsText("server"));
            assertEquals(
                    List.of("virtual", "timer"),
                    json.get("runs").findValuesAsText("strategy"),
                    "from each server's /stats");
            for (JsonNode run : json.get("runs")) {
                assertEquals(0, run.get("failed").get("total").asLong(), run.toString());
                assertEquals("exact", run.get("reconciliation").get("verdict").asText(), run.toString());
                assertEquals(1000.0, run.get("bound").asDouble());
                assertTrue(run.get("requestsPerSecond").asDouble() > 0);
                assertTrue(run.get("serverCpuSeconds").asDouble() > 0, "from the server's /stats: " + run);
                assertTrue(run.get("cost").get("cpuMicrosPerRequest").asDouble() > 0, run.toString());
                assertTrue(run.get("cost").get("peakThreads").asLong() > 0, run.toString());
                assertTrue(run.get("serverExitCode").isNull(), run.toString());
            }
            assertTrue(Files.readString(out.resolve("report.html")).contains("echarts.init("));
            assertFalse(Files.exists(out.resolve("logs")), "no server logs: compare started no server");

            // still running and counting: a --delay-every other than theirs is refused before any run
            MainTest.Ran mismatch =
                    MainTest.run("compare", "--targets", targets, "--delay-every", "7", "--out", out.toString());
            assertEquals(2, mismatch.code(), mismatch.out() + mismatch.err());
            assertTrue(
                    mismatch.err()
                            .startsWith("loadtest: --delay-every 7 does not match undertow at " + undertow.base()
                                    + ": its /stats counts "),
                    mismatch.err());
            assertEquals(1, mismatch.err().strip().lines().count(), mismatch.err());

            assertEquals(OptionalInt.of(0), undertow.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0");
            assertEquals(OptionalInt.of(0), vertx.stop(Duration.ofSeconds(15)), "SIGTERM: exit 0");
        }
    }
}
