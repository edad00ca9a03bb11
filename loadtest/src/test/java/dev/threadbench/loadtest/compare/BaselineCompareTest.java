package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.StandInServer;
import dev.threadbench.loadtest.base.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare --baseline and --fail-if end to end, against a stand-in server: the exit codes, the refusal, the files
 * written.
 */
class BaselineCompareTest {

    @TempDir
    Path dir;

    private static MainTest.Ran compare(StandInServer server, Path out, String... more) {
        return compare(server, out, 4, more);
    }

    private static MainTest.Ran compare(StandInServer server, Path out, int rounds, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "compare",
                "--targets",
                "undertow=http://127.0.0.1:" + server.port(),
                "--concurrency",
                "2",
                "--rampup",
                "0",
                "--warmup",
                "0",
                "--duration",
                "1",
                "--delay-every",
                "0",
                "--no-pin",
                "--repeat",
                String.valueOf(rounds),
                "--out",
                out.toString()));
        args.addAll(List.of(more));
        return MainTest.run(args.toArray(String[]::new));
    }

    @Test
    void aRunIsJudgedAgainstASavedOneAndABreachExitsWithItsOwnCode() throws Exception {
        try (StandInServer undertow = new StandInServer(0, 0).namedAs("undertow")) {
            Path base = dir.resolve("base");
            MainTest.Ran first = compare(undertow, base);
            assertEquals(ExitCodes.OK, first.code(), first.out() + first.err());
            JsonNode environment = new ObjectMapper()
                    .readTree(base.resolve("results.json").toFile())
                    .get("environment");
            assertNotNull(environment.get("build").asText(null), environment.toString());
            assertTrue(environment.get("frameworks").has("undertow"), environment.toString());
            assertTrue(Files.isRegularFile(base.resolve("summary.md")));
            try (Stream<Path> kept = Files.list(base.resolve("history"))) {
                assertEquals(1, kept.count(), "the run kept in the history");
            }

            Path current = dir.resolve("current");
            MainTest.Ran second =
                    compare(undertow, current, "--baseline", base.toString(), "--fail-if", "failed>0,req/s<1000000000");

            assertEquals(ExitCodes.LIMIT_BREACHED, second.code(), second.out() + second.err());
            List<String> err = second.err().strip().lines().toList();
            assertEquals(1, err.size(), second.err());
            assertTrue(err.getFirst().startsWith("loadtest: --fail-if req/s<1000000000: C=2 undertow/"), second.err());
            assertTrue(second.out().contains("against the baseline " + base + " (1 earlier run)"), second.out());
            assertTrue(second.out().contains("(4 rounds, baseline 4):"), second.out());
            assertTrue(second.out().contains("fail-if: 1 limit(s) breached (exit code 3)"), second.out());
            JsonNode judged = new ObjectMapper()
                    .readTree(current.resolve("results.json").toFile())
                    .get("baseline");
            assertEquals(1, judged.get("cells").size(), judged.toString());
            String summary = Files.readString(current.resolve("summary.md"));
            assertTrue(summary.contains("| cell | rounds | req/s | p99 ms | srv us/req | failed |"), summary);
            assertTrue(summary.contains("- **breached** req/s<1000000000: C=2 undertow/"), summary);

            MainTest.Ran again = MainTest.run(
                    "report",
                    current.resolve("results.json").toString(),
                    "--out",
                    current.toString(),
                    "--baseline",
                    base.toString(),
                    "--fail-if",
                    "failed>0");
            assertEquals(ExitCodes.OK, again.code(), again.out() + again.err());
            assertTrue(again.out().contains("fail-if: no limit breached"), again.out());
        }
    }

    @Test
    void aBaselineFromAnotherMachineIsRefusedBeforeAnyRunUnlessAllowed() throws Exception {
        try (StandInServer undertow = new StandInServer(0, 0).namedAs("undertow")) {
            Path base = dir.resolve("base");
            assertEquals(ExitCodes.OK, compare(undertow, base, 1).code());
            ObjectMapper mapper = new ObjectMapper();
            ObjectNode results =
                    (ObjectNode) mapper.readTree(base.resolve("results.json").toFile());
            String cpu = results.get("environment").get("cpuModel").asText();
            ((ObjectNode) results.get("environment")).put("cpuModel", "Some Other CPU");
            mapper.writeValue(base.resolve("results.json").toFile(), results);
            long served = undertow.requests();

            MainTest.Ran refused = compare(
                    undertow,
                    dir.resolve("current"),
                    "--baseline",
                    base.resolve("results.json").toString());

            assertEquals(ExitCodes.USAGE, refused.code());
            assertEquals(
                    "loadtest: --baseline: " + base.resolve("results.json")
                            + " ran on another machine or pinning: CPU model:" + " Some Other CPU in the baseline, "
                            + cpu + " in this run (judge anyway: --allow-env-change)\n",
                    refused.err().replace("\r\n", "\n"));
            assertEquals("", refused.out());
            assertEquals(served, undertow.requests(), "no run made");

            MainTest.Ran allowed = compare(
                    undertow,
                    dir.resolve("allowed"),
                    1,
                    "--baseline",
                    base.resolve("results.json").toString(),
                    "--allow-env-change");
            assertEquals(ExitCodes.OK, allowed.code(), allowed.out() + allowed.err());
            assertTrue(
                    allowed.out().contains("environment differs: CPU model: Some Other CPU in the baseline"),
                    allowed.out());
            assertTrue(allowed.out().contains("too few runs to judge: 1 earlier run of this cell"), allowed.out());
        }
    }

    @Test
    void limitsAndTheBaselineAreCheckedBeforeAnyRun() {
        MainTest.Ran relative = MainTest.run("compare", "--fail-if", "p99>+5%");
        assertEquals(ExitCodes.USAGE, relative.code());
        assertEquals(
                "loadtest: --fail-if: 'p99>+5%' is relative to a baseline: give --baseline PATH\n", relative.err());
        MainTest.Ran missing = MainTest.run(
                "compare", "--baseline", dir.resolve("nothing.json").toString());
        assertEquals(ExitCodes.USAGE, missing.code());
        assertEquals("loadtest: " + dir.resolve("nothing.json") + ": no such file\n", missing.err());
        MainTest.Ran allow = MainTest.run("report", "x.json", "--allow-env-change");
        assertEquals("loadtest: --allow-env-change: only with --baseline\n", allow.err());
        MainTest.Ran junit = MainTest.run(
                "report", "x.json", "--junit", dir.resolve("junit.xml").toString());
        assertEquals(ExitCodes.USAGE, junit.code());
        assertEquals("loadtest: --junit: only with --fail-if (its test cases are the limits)\n", junit.err());
        assertEquals(ExitCodes.USAGE, allow.code());
    }
}
