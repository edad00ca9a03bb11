package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Heartbeat;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import dev.threadbench.loadtest.cluster.messages.Release;
import dev.threadbench.loadtest.cluster.messages.ReportReceived;
import dev.threadbench.loadtest.cluster.messages.RunStatus;
import dev.threadbench.loadtest.cluster.messages.Sealed;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What reaches a node's handlers: only messages sealed with its key, once, for its address, within the window. One
 * Vert.x here stands for the cluster: what travels is the same {@link Sealed} either way.
 */
class SignedBusTest {

    private static final String AGENT = ClusterMessage.agentAddress("agent-node");
    private static final String COMPARE = ClusterMessage.compareAddress("compare-node");

    @TempDir
    Path dir;

    private Vertx vertx;
    private SignedBus agent;
    private SignedBus compare;
    private SignedBus forger;
    private final List<ClusterMessage> handled = new CopyOnWriteArrayList<>();
    private final List<String> dropped = new CopyOnWriteArrayList<>();

    private ClusterKey key(String name) {
        ClusterKey.generate(dir.resolve(name));
        return ClusterKey.read("--cluster-key", dir.resolve(name));
    }

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        vertx.eventBus().registerCodec(new MessageCodec());
        ClusterKey key = key("cluster.key");
        agent = new SignedBus(vertx, key);
        compare = new SignedBus(vertx, key);
        forger = new SignedBus(vertx, key("other.key"));
        agent.consumer(AGENT, dropped::add, (body, message) -> {
            handled.add(body);
            if (body instanceof Heartbeat heartbeat) {
                agent.reply(message, new RunStatus(heartbeat.runId(), true));
            }
        });
        compare.consumer(COMPARE, dropped::add, (body, message) -> {
            handled.add(body);
            compare.reply(message, new ReportReceived("r1"));
        });
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static ReplyException failure(Future<?> future) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> await(future));
        return assertInstanceOf(ReplyException.class, failed.getCause());
    }

    private void settle() throws InterruptedException {
        Thread.sleep(300);
    }

    @Test
    void aForgedReleaseWithComparesNodeIdNeverReachesTheAgent() throws Exception {
        forger.send(AGENT, new Release("compare-node"));
        settle();
        assertEquals(List.of(), handled, "not acted on");
        assertEquals(
                List.of("dropped a Release not signed with this cluster's key (forged, altered, or from a node with"
                        + " another key)"),
                dropped,
                "one line");
        compare.send(AGENT, new Release("compare-node"));
        settle();
        assertEquals(List.of(new Release("compare-node")), handled);
    }

    @Test
    void aForgedOrReplayedHeartbeatIsRefusedAndDoesNotCountAsCompareHeard() throws Exception {
        assertEquals(
                401, failure(forger.request(AGENT, new Heartbeat("r1"), 2000)).failureCode());
        Sealed heartbeat = compare.seals().seal(new Heartbeat("r1"), AGENT, null);
        assertEquals(new RunStatus("r1", true), await(compare.request(AGENT, heartbeat, 2000)));
        ReplyException replay = failure(compare.request(AGENT, heartbeat, 2000));
        assertEquals(SignedBus.UNTRUSTED, replay.failureCode());
        assertEquals("a Heartbeat seen before (a replay)", replay.getMessage());
        Sealed toAnother = compare.seals().seal(new Heartbeat("r1"), ClusterMessage.agentAddress("other"), null);
        assertEquals(
                "a Heartbeat meant for threadbench.agent.other (a replay elsewhere)",
                failure(compare.request(AGENT, toAnother, 2000)).getMessage());
        assertEquals(List.of(new Heartbeat("r1")), handled, "only the genuine heartbeat was heard");
        assertEquals(3, dropped.size(), String.valueOf(dropped));
    }

    @Test
    void aForgedReportIsNotAcceptedNorAcknowledged() throws Exception {
        AgentReport forged = new AgentReport(
                "r1",
                "agent-node",
                "a1",
                "10.0.0.3",
                10,
                1_000_000,
                1_000_000,
                Map.of(),
                1,
                null,
                0,
                0,
                0,
                0,
                1,
                null,
                null,
                null,
                0,
                null,
                null);
        ReplyException refused = failure(forger.request(COMPARE, forged, 2000));
        assertTrue(refused.getMessage().startsWith("dropped the answer: "), refused.getMessage());
        assertEquals(List.of(), handled);
        assertEquals(new ReportReceived("r1"), await(agent.request(COMPARE, forged, 2000)), "the same, signed");
    }

    @Test
    void anAnswerNotSealedWithTheKeyFailsTheRequestWhateverItClaims() throws Exception {
        vertx.eventBus().<ClusterMessage>consumer(ClusterMessage.agentAddress("impostor"), message -> {
            message.reply(new RunStatus("r1", true), MessageCodec.options());
        });
        vertx.eventBus().<ClusterMessage>consumer(ClusterMessage.agentAddress("failing"), message -> {
            message.fail(Agent.FORBIDDEN, "a refusal anyone could send");
        });
        assertEquals(
                "dropped the answer: a message not sealed as this build seals them",
                failure(compare.request(ClusterMessage.agentAddress("impostor"), new Heartbeat("r1"), 2000))
                        .getMessage());
        assertEquals(
                SignedBus.UNSIGNED_FAILURE,
                failure(compare.request(ClusterMessage.agentAddress("failing"), new Heartbeat("r1"), 2000))
                        .failureCode(),
                "Vert.x's own failure replies carry no MAC: never read as the agent's refusal");
    }
}
