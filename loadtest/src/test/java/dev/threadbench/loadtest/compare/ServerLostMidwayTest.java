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

/** A server that fails in the middle of a compare costs its own remaining runs, not the ones already made. */
class ServerLostMidwayTest {

    @TempDir
    Path dir;

    @Test
    void theRunsMadeBeforeAServerFailedAreWrittenAndTheFailureIsOneLine() throws Exception {
        try (StandInServer undertow = new StandInServer(0, 0).namedAs("undertow");
                StandInServer vertx = new StandInServer(0, 0).namedAs("vertx")) {
            // Vert.x's turn comes after Undertow's runs: its /stats breaks once Undertow has been driven
            Thread breaker = Thread.ofVirtual().start(() -> {
                while (undertow.requests() == 0) {
                    Thread.onSpinWait();
                }
                vertx.breakStats();
            });
            Path out = dir.resolve("results");
            MainTest.Ran ran = MainTest.run(
                    "compare",
                    "--targets",
                    "undertow=http://127.0.0.1:" + undertow.port() + ",vertx=http://127.0.0.1:" + vertx.port(),
                    "--concurrency",
                    "2,4",
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
                    "1",
                    "--out",
                    out.toString());
            breaker.join();

            assertEquals(1, ran.code(), ran.out() + ran.err());
            assertEquals(
                    List.of("loadtest: vertx (default): vertx server: GET /stats answered 500; its remaining runs in"
                            + " this round"
                            + " skipped"),
                    ran.err().strip().lines().toList());
            JsonNode json =
                    new ObjectMapper().readTree(out.resolve("results.json").toFile());
            assertEquals(
                    List.of("undertow", "undertow"),
                    json.get("runs").findValuesAsText("server"),
                    "Undertow's runs are kept");
            assertTrue(ran.out().contains("failed: vertx server: GET /stats answered 500"), ran.out());
        }
    }
}
