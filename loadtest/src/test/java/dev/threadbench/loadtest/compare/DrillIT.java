package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.engine.DrillOutput;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.server.ProjectLayout;
import dev.threadbench.loadtest.server.StartedServer;
import dev.threadbench.process.ServerProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real drill binary against the packaged servers, in short runs: {@code compare --engine drill},
 * drill's --stats panic on a slow answer and the timeout that avoids it, and {@code scripts/drill-all}.
 * Skipped, with the reason, where drill is not on PATH ({@code .ci/run} puts ../shared/tools there).
 */
class DrillIT {

    private static final Optional<Path> DRILL = Arrays.stream(
                    System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isEmpty())
            .map(dir -> Path.of(dir, "drill"))
            .filter(Files::isExecutable)
            .findFirst();

    private static final String NO_DRILL =
            "no drill on PATH: the real-drill tests are skipped (.ci/run puts ../shared/tools on PATH)";

    @TempDir
    Path dir;

    /** The build's console shows how many tests were skipped but not why: say it once. */
    @BeforeAll
    static void sayWhyWhenSkipped() {
        if (DRILL.isEmpty()) {
            System.err.println("DrillIT: " + NO_DRILL);
        }
    }

    @BeforeEach
    void drillIsInstalled() {
        assumeTrue(DRILL.isPresent(), NO_DRILL);
    }

    @Test
    void compareWithEngineDrillReadsItsFiguresFromRealDrill() throws IOException {
        Path out = dir.resolve("results");
        MainTest.Ran ran = MainTest.run(
                "compare",
                "--engine",
                "drill",
                "--concurrency",
                "20",
                "--iterations",
                "400",
                "--rampup",
                "0",
                "--delay-ms",
                "200",
                "--jvm-opts",
                "-Xmx256m",
                "--repeat",
                "1",
                "--out",
                out.toString());
        assertEquals(0, ran.code(), ran.out() + ran.err());
        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertEquals("drill", json.get("settings").get("engine").asText());
        assertEquals(List.of("undertow", "vertx"), json.get("runs").findValuesAsText("server"));
        for (JsonNode run : json.get("runs")) {
            assertEquals("drill", run.get("engine").asText(), run.toString());
            assertEquals(400, run.get("requests").asLong(), run.toString());
            assertEquals(0, run.get("failed").get("total").asLong(), run.toString());
            assertEquals("exact", run.get("reconciliation").get("verdict").asText(), run.toString());
            assertTrue(run.get("requestsPerSecond").asDouble() > 0, run.toString());
            // one request in 10 is held 200 ms: the slowest 1% cannot be faster
            assertTrue(run.get("latencyMs").get("p99").asDouble() >= 200, run.toString());
            assertTrue(
                    run.get("latencyMs").get("p50").asDouble()
                            < run.get("latencyMs").get("p99").asDouble(),
                    run.toString());
            assertTrue(run.get("notes").toString().contains("drill ran with --timeout 3 s, not 10 s"), run.toString());
        }
    }

    @Test
    void anAnswerSlowerThanDrillsHistogramTimesOutAt3sUnderTheEngineAndPanicsDrillWithoutIt() throws Exception {
        try (StartedServer slow = StartedServer.start(
                ServerProcess.Launch.logged(
                        "undertow", ServersIT.jar("undertow"), List.of("-Xmx256m"), dir.resolve("slow.log")),
                List.of("--delay-every", "1", "--delay-ms", "4500"),
                null)) {
            // compare's default --timeout 10: the engine gives drill 3 s, so the 4.5 s answers fail and the summary is
            // kept
            Outcome outcome = Engine.named("drill", System.err, false)
                    .run(
                            slow.base().resolve("/"),
                            2,
                            new Engine.Timing(0, 0, null, 2L, 10, 0),
                            new LoadRunner.Phases() {});
            assertEquals(2, outcome.window().requests());
            assertEquals(2, outcome.window().failed().total());
            assertTrue(
                    outcome.latency().latencyMs().p50() >= 3000
                            && outcome.latency().latencyMs().p50() < 4194,
                    outcome.latency().latencyMs().toString());

            // drill as a user runs it, default --timeout 10 s: it panics after the run, and that is named as the cause
            Path plan = Files.writeString(dir.resolve("slow.yml"), """
                    concurrency: 1
                    base: '%s'
                    iterations: 1
                    rampup: 0
                    plan:
                      - name: Fetch the page
                        request:
                          url: /
                    """.formatted(slow.base()));
            Process drill = new ProcessBuilder(
                            DRILL.orElseThrow().toString(), "--benchmark", plan.toString(), "--stats", "--quiet")
                    .redirectErrorStream(true)
                    .start();
            String output = new String(drill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = drill.waitFor();
            assertEquals(101, status, output);
            RunFailure e = assertThrows(RunFailure.class, () -> DrillOutput.of(output, status));
            assertTrue(
                    e.getMessage()
                            .startsWith("drill exited with status 101 and no summary: it panicked on a request slower"
                                    + " than its --stats histogram holds"),
                    e.getMessage());
        }
    }

    @Test
    void drillAllDrillsBothPlansAgainstBothServers() throws Exception {
        Path root = ProjectLayout.root();
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", root.resolve("scripts/drill-all").toString(), "--quiet")
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("drill-all.out").toFile());
        builder.environment().put("ITERATIONS", "4000");
        builder.environment().put("DELAY_MS", "200");
        Process script = builder.start();
        boolean ended = script.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(dir.resolve("drill-all.out"));
        assertTrue(ended, "drill-all still running after 5 minutes:\n" + output);
        assertEquals(0, script.exitValue(), output);
        assertEquals(
                2,
                count(
                        output,
                        "^== (undertow|vertx) at http://127\\.0\\.0\\.1:\\d+: .* delay=200 ms every 10 requests .*$"),
                output);
        assertEquals(2, count(output, "^Concurrency 1000$"), output);
        assertEquals(2, count(output, "^Concurrency 2000$"), output);
        assertEquals(4, count(output, "^Iterations 4000$"), output);
        assertEquals(4, count(output, "^Total requests {12}4000$"), output);
        assertEquals(4, count(output, "^Failed requests {11}0$"), output);
        assertEquals(4, count(output, "^Requests per second {7}[\\d.]+ \\[#/sec\\]$"), output);
    }

    private static long count(String output, String line) {
        Pattern pattern = Pattern.compile(line);
        return output.lines().filter(l -> pattern.matcher(l).matches()).count();
    }
}
