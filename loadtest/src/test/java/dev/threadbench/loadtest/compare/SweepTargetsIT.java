package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.MainTest;
import dev.threadbench.loadtest.StandInServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare --sweep --targets narrows in too: the runs carry the strategy the running server reports, which the planned
 * server (no strategy of its own) must still be found for. A stand-in holding at most 8 delayed requests at once, as a
 * worker pool of 8 would, holds the bound up to 8 connections (each spends nearly all its time in a delayed request)
 * and at 9 reaches at most 8/9 of it.
 */
class SweepTargetsIT {

    @TempDir
    Path dir;

    @Test
    void aSweepOfARunningServerNarrowsInOnItsKnownBreakingPointAndMeasuresItsEndsAgain() throws Exception {
        try (StandInServer undertow =
                new StandInServer(10, 500).namedAs("undertow").holdingAtMost(8)) {
            Path out = dir.resolve("sweep");
            MainTest.Ran ran = MainTest.run(
                    "compare",
                    "--sweep",
                    "--targets",
                    "undertow=http://127.0.0.1:" + undertow.port(),
                    "--concurrency",
                    "4,32",
                    "--resolution",
                    "25%",
                    "--delay-every",
                    "10",
                    "--delay-ms",
                    "500",
                    "--rampup",
                    "0",
                    "--warmup",
                    "0",
                    "--duration",
                    "2",
                    "--no-pin",
                    "--repeat",
                    "1",
                    "--out",
                    out.toString());
            assertEquals(0, ran.code(), ran.out() + ran.err());
            assertTrue(
                    ran.out()
                            .contains(
                                    "\nnarrowing in, step 1 (until the first not held is within 25 % of the last held):"
                                            + " undertow/timer at "),
                    ran.out());
            assertTrue(
                    ran.out()
                            .contains("\nmeasuring the ends again as the narrowing measures, held ends: undertow/timer"
                                    + " at "),
                    ran.out());

            JsonNode json =
                    new ObjectMapper().readTree(out.resolve("results.json").toFile());
            List<String> phases = json.get("runs").findValuesAsText("phase");
            assertEquals(List.of("grid", "grid"), phases.subList(0, 2));
            assertTrue(
                    phases.subList(2, phases.size() - 2).stream().allMatch("narrowing"::equals) && phases.size() >= 5,
                    phases.toString());
            assertEquals(List.of("ends", "ends"), phases.subList(phases.size() - 2, phases.size()));
            JsonNode pair = json.get("sweep").get(0);
            int heldAt = pair.get("heldAt").asInt();
            int notHeldAt = pair.get("notHeldAt").asInt();
            assertTrue(heldAt <= 8 && 8 < notHeldAt, "the interval contains the known breaking point, 8-9: " + pair);
            assertTrue(notHeldAt - heldAt <= Math.max(1, 0.25 * heldAt), "narrowed in: " + pair);
            List<Integer> ends = json.get("runs").findValues("concurrency").stream()
                    .map(JsonNode::asInt)
                    .toList();
            assertEquals(
                    List.of(heldAt, notHeldAt), ends.subList(ends.size() - 2, ends.size()), "both ends measured again");
            assertEquals(
                    heldAt, pair.get("ends").get("heldAgain").get("concurrency").asInt(), pair.toString());
        }
    }
}
