package dev.threadbench.loadtest.cluster.messages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.SecondSeries;
import io.vertx.core.buffer.Buffer;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

    static ClusterMessage roundTrip(MessageCodec codec, ClusterMessage message) {
        Buffer wire = Buffer.buffer();
        wire.appendString("ahead");
        codec.encodeToWire(wire, message);
        return codec.decodeFromWire(5, wire);
    }

    /** One message of every kind that travels inside a {@link Sealed}. */
    static List<ClusterMessage> oneOfEachKind() {
        return List.of(
                new Claim("1.0 built t", "node-1", "compare-1", "198.18.0.5"),
                ClaimAnswer.ACCEPTED,
                ClaimAnswer.refused(
                        Refusal.TAKEN_BY_ANOTHER_COMPARE, "agent a1 is taken by another compare, c1 (198.18.0.6)"),
                new Release("node-1"),
                order(),
                new RunAccepted("r1"),
                new Heartbeat("r1"),
                new StopRun("r1", "agent a2 left"),
                new RunStatus("r1", true),
                new ReportReceived("r1"),
                new AgentReport(
                        "r1",
                        "node-2",
                        "a2",
                        "198.18.0.4",
                        500,
                        1000,
                        998,
                        Map.of("TIMEOUT", 2L),
                        50.0,
                        "HISTOGRAM",
                        1100,
                        1090,
                        500,
                        3.5,
                        2,
                        "epoll",
                        null,
                        new LoadResult.Open(2500, 500, 125_000, 124_990, 3, 0, 12.5),
                        0.3,
                        null,
                        new SecondSeries(17.0, 67.0, Arrays.asList("SECOND0", null, "SECOND2"), List.of(0L, 0L, 2L))),
                new Refused(403, "target http://10.0.0.9:80 is not in --allow-targets"));
    }

    @Test
    void everyMessageComesBackEqualAndIsCounted() {
        MessageCodec codec = new MessageCodec();
        List<ClusterMessage> messages = oneOfEachKind();
        for (ClusterMessage message : messages) {
            assertEquals(message, roundTrip(codec, message));
        }
        assertEquals(2L * messages.size(), codec.messages(), "each encoded and decoded");
    }

    private static RunOrder order() {
        return new RunOrder(
                "r1",
                "node-1",
                "node-2",
                List.of(new Plan.Step(
                        "GET /",
                        "GET",
                        URI.create("http://198.18.0.2:8080/"),
                        new java.util.TreeMap<>(Map.of("Accept", "text/html", "X-B", "b")))),
                500,
                2500.0,
                new Engine.Timing(2, 15, 50, null, 10, 0),
                500);
    }

    @Test
    void aSealsSignedContentLeavesOutItsMacAndIsTheSameAfterTheWire() {
        MessageCodec codec = new MessageCodec();
        Sealed sealed = new Sealed(order(), "threadbench.agent.node-2", null, "bm9uY2U=", 1_800_000_000_000L, "TUFD");
        Sealed received = (Sealed) roundTrip(codec, sealed);
        assertArrayEquals(sealed.signedContent(), received.signedContent());
        assertArrayEquals(
                sealed.signedContent(),
                sealed.withMac("other").signedContent(),
                "the MAC is not part of what it covers");
        assertFalse(new String(sealed.signedContent(), StandardCharsets.UTF_8).contains("TUFD"));
        RunOrder reordered = new RunOrder(
                "r1",
                "node-1",
                "node-2",
                List.of(new Plan.Step(
                        "GET /",
                        "GET",
                        URI.create("http://198.18.0.2:8080/"),
                        new java.util.LinkedHashMap<>(java.util.Map.of("X-B", "b", "Accept", "text/html")))),
                500,
                2500.0,
                new Engine.Timing(2, 15, 50, null, 10, 0),
                500);
        assertArrayEquals(
                sealed.signedContent(),
                new Sealed(reordered, sealed.to(), null, sealed.nonce(), sealed.issuedAtMillis(), null).signedContent(),
                "headers in another order: the same content");
    }

    @Test
    void aMessageThisBuildCannotReadFailsWithItsReason() {
        byte[] json = "{\"type\":\"SomethingNew\"}".getBytes(StandardCharsets.UTF_8);
        Buffer wire = Buffer.buffer().appendInt(json.length).appendBytes(json);
        assertThrows(UncheckedIOException.class, () -> new MessageCodec().decodeFromWire(0, wire));
    }
}
