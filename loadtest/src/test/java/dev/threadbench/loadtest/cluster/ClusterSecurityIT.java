package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.ClusterNode.Role;
import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.MessageCodec;
import dev.threadbench.loadtest.cluster.messages.MessageSeals;
import dev.threadbench.loadtest.cluster.messages.ReportReceived;
import dev.threadbench.loadtest.cluster.messages.RunAccepted;
import dev.threadbench.loadtest.cluster.messages.RunOrder;
import dev.threadbench.loadtest.cluster.messages.Sealed;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.LoadRunner;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent and compares in one JVM on loopback: without the agent's key nothing reaches it; with it, an order that is
 * altered, replayed, meant for another agent or aimed outside --allow-targets is refused; a report that never arrives
 * ends a counted run within the failure timeout, naming the agent.
 */
class ClusterSecurityIT {

    private static final String HOST = "127.0.0.1";
    private static final String BUILD = "1.0 built 2026-12-03T00:00:00Z";
    private static final Duration FAILURE_TIMEOUT = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicLong served = new AtomicLong();

    @BeforeEach
    void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress(HOST, 0), 100);
        server.createContext("/", exchange -> {
            served.incrementAndGet();
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private ClusterKey key(String name) {
        Path file = dir.resolve(name);
        ClusterKey.generate(file);
        return ClusterKey.read("--cluster-key", file);
    }

    private static ClusterSettings settings(int port, List<String> join, ClusterKey key) {
        return new ClusterSettings(HOST, port, join, null, 0, key, FAILURE_TIMEOUT);
    }

    private URI target() {
        return URI.create("http://" + HOST + ":" + server.getAddress().getPort() + "/");
    }

    @Test
    void withoutTheAgentsKeyCompareSeesNoAgentAndNoClaimReachesIt() throws Exception {
        int port = ClusterProcesses.freePort();
        ClusterKey agentKey = key("agent.key");
        ByteArrayOutputStream compareOut = new ByteArrayOutputStream();
        try (ClusterNode agentNode = ClusterNode.join(settings(port, List.of(), agentKey), Role.AGENT, "a1", BUILD);
                Agent agent = new Agent(
                        agentNode,
                        new PrintStream(new ByteArrayOutputStream(), true),
                        AllowedTargets.parse(HOST, false))) {
            ClusterKey otherKey = key("other.key");
            AgentsOptions.Request request = new AgentsOptions.Request(
                    1, Duration.ofSeconds(3), settings(port + 10, List.of(HOST + ":" + port), otherKey));
            UsageException refused = assertThrows(
                    UsageException.class,
                    () -> ClusterEngine.connect(
                                    request,
                                    new PrintStream(compareOut, true, StandardCharsets.UTF_8),
                                    "compare",
                                    BUILD)
                            .close());
            // another key's TLS fails on the membership layer too: the agent is never a member it could claim
            assertEquals("--agents 1: only 0 agent(s) joined in time (none)", refused.getMessage());
            assertFalse(
                    compareOut.toString(StandardCharsets.UTF_8).contains("a1"),
                    compareOut.toString(StandardCharsets.UTF_8));

            // and asked all the same, past that check, over the event bus: another key's TLS, or none, finds no one
            // there (its cluster is its own, which knows no handler at the agent's address); ClusterIntruderIT has
            // the event bus's own refusal, met by a client that knows the agent's bus port
            for (ClusterKey key : java.util.Arrays.asList(otherKey, null)) {
                try (ClusterNode intruder = ClusterNode.join(
                        settings(port + 20, List.of(HOST + ":" + port), key), Role.COMPARE, "intruder", BUILD)) {
                    String who = key == null ? "without a key" : "with another key";
                    assertEquals(List.of(), memberNames(intruder), who + ": the intruder sees no member");
                    assertEquals(List.of(), memberNames(agentNode), who + ": the agent sees no member");
                    ExecutionException failed = assertThrows(
                            ExecutionException.class,
                            () -> intruder.vertx()
                                    .eventBus()
                                    .<ClusterMessage>request(
                                            ClusterMessage.agentAddress(agentNode.nodeId()),
                                            new Claim(BUILD, intruder.nodeId(), "intruder", HOST),
                                            MessageCodec.options().setSendTimeout(3000))
                                    .toCompletionStage()
                                    .toCompletableFuture()
                                    .get(10, TimeUnit.SECONDS));
                    ReplyException reply = assertInstanceOf(
                            ReplyException.class, failed.getCause(), String.valueOf(failed.getCause()));
                    assertEquals(ReplyFailure.NO_HANDLERS, reply.failureType(), reply.getMessage());
                }
            }
            assertEquals(0, served.get(), "no load from the intruders");

            // the control: a compare with the agent's key claims it, and its order makes load
            AgentsOptions.Request keyed = new AgentsOptions.Request(
                    1, Duration.ofSeconds(30), settings(port + 30, List.of(HOST + ":" + port), agentKey));
            try (ClusterEngine engine = ClusterEngine.connect(
                    keyed, new PrintStream(new ByteArrayOutputStream(), true), "compare", BUILD)) {
                engine.runShares(
                        List.of(new Plan.Step("GET /", "GET", target(), Map.of())),
                        1,
                        null,
                        new Engine.Timing(0, 0, null, 20L, 5, 0),
                        new LoadRunner.Phases() {});
            }
        }
        assertEquals(20, served.get(), "the keyed compare's 20 requests, and none before them");
    }

    @Test
    void aNodeWithoutTheKeyNeitherJoinsTheMembershipNorSeesTheAgentsNorTakesTheLock() throws Exception {
        int port = ClusterProcesses.freePort();
        ClusterKey key = key("cluster.key");
        try (ClusterNode agent = ClusterNode.join(settings(port, List.of(), key), Role.AGENT, "a1", BUILD);
                ClusterNode compare = ClusterNode.join(
                        settings(port + 10, List.of(HOST + ":" + port), key), Role.COMPARE, "compare", BUILD)) {
            awaitMembers(agent, List.of("compare"));
            assertEquals(List.of("a1"), memberNames(compare), "the key holders form one cluster");

            for (ClusterKey intruderKey : java.util.Arrays.asList(key("other.key"), null)) {
                String intruderName = intruderKey == null ? "no-key" : "other-key";
                try (ClusterNode intruder = ClusterNode.join(
                        settings(port + 20, List.of(HOST + ":" + port, HOST + ":" + (port + 10)), intruderKey),
                        Role.COMPARE,
                        intruderName,
                        BUILD)) {
                    // past the join, and past a few of the membership's merge rounds (every 2-5 s)
                    Thread.sleep(8_000);
                    assertEquals(List.of(), memberNames(intruder), intruderName + " sees no member");
                    assertEquals(1, intruder.memberCount(), intruderName + ": a cluster of its own");
                    assertEquals(List.of("compare"), memberNames(agent), intruderName + ": the agent sees");
                    assertEquals(List.of("a1"), memberNames(compare), intruderName + ": compare sees");
                    // the lock it takes is its own cluster's: compare still takes the real one
                    try (ClusterLock taken = ClusterLock.take(intruder);
                            ClusterLock real = ClusterLock.take(compare)) {
                        assertEquals(2, compare.memberCount(), intruderName + ": compare holds its cluster's lock");
                    }
                }
            }
        }
    }

    private static List<String> memberNames(ClusterNode node) {
        return node.others().stream().map(ClusterNode.Member::name).sorted().toList();
    }

    private static void awaitMembers(ClusterNode node, List<String> names) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!memberNames(node).equals(names) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    @Test
    void anOrderAlteredReplayedMisdirectedUnsignedOrForATargetNotAllowedIsRefused() throws Exception {
        int port = ClusterProcesses.freePort();
        ClusterKey key = key("cluster.key");
        ByteArrayOutputStream agentOut = new ByteArrayOutputStream();
        String allowed = HOST + ":" + server.getAddress().getPort();
        try (ClusterNode agentNode = ClusterNode.join(settings(port, List.of(), key), Role.AGENT, "a1", BUILD);
                Agent agent = new Agent(
                        agentNode,
                        new PrintStream(agentOut, true, StandardCharsets.UTF_8),
                        AllowedTargets.parse(allowed, false));
                ClusterNode compare = ClusterNode.join(
                        settings(port + 10, List.of(HOST + ":" + port), key), Role.COMPARE, "c1", BUILD)) {
            LinkedBlockingQueue<AgentReport> reports = new LinkedBlockingQueue<>();
            compare.bus().consumer(ClusterMessage.compareAddress(compare.nodeId()), line -> {}, (body, message) -> {
                compare.bus().reply(message, new ReportReceived("any"));
                reports.add((AgentReport) body);
            });
            String agentId = agentNode.nodeId();
            String address = ClusterMessage.agentAddress(agentId);
            assertEquals(
                    null,
                    ((ClaimAnswer) ask(compare, address, new Claim(BUILD, compare.nodeId(), "c1", HOST))).refusal());

            Sealed order = compare.bus().seals().seal(order("r1", compare.nodeId(), agentId, target()), address, null);
            assertInstanceOf(RunAccepted.class, ask(compare, address, order));
            AgentReport report = reports.poll(30, TimeUnit.SECONDS);
            assertTrue(report != null && report.error() == null && report.requests() == 20, String.valueOf(report));

            assertEquals("a RunOrder seen before (a replay)", refusal(compare, address, order, SignedBus.UNTRUSTED));
            assertInstanceOf(
                    RunAccepted.class, ask(compare, address, order("r2", compare.nodeId(), agentId, target())));
            assertTrue(reports.poll(30, TimeUnit.SECONDS) != null, "the second order's report");
            RunOrder one = order("r3", compare.nodeId(), agentId, target());
            Sealed signed = compare.bus().seals().seal(one, address, null);
            Sealed moreLoad = new Sealed(
                    new RunOrder(one.runId(), one.compareNode(), agentId, one.steps(), 500, null, one.timing(), 0),
                    address,
                    null,
                    signed.nonce(),
                    signed.issuedAtMillis(),
                    signed.mac());
            String unsigned = "a RunOrder not signed with this cluster's key (forged, altered, or from a node with"
                    + " another key)";
            assertEquals(
                    unsigned,
                    refusal(compare, address, moreLoad, SignedBus.UNTRUSTED),
                    "500 connections under the MAC of 1");
            Sealed insecure = new MessageSeals(null, System::currentTimeMillis)
                    .seal(order("r4", compare.nodeId(), agentId, target()), address, null);
            assertEquals(unsigned, refusal(compare, address, insecure, SignedBus.UNTRUSTED));
            assertEquals(
                    "the order is for another agent",
                    refusal(compare, address, order("r5", compare.nodeId(), "other", target()), Agent.FORBIDDEN));
            RunOrder negativeRate = new RunOrder(
                    "r7", compare.nodeId(), agentId, one.steps(), 1, -1.0, new Engine.Timing(0, 0, 5, null, 5, 1), 0);
            assertEquals(
                    "cannot prepare run r7: IllegalArgumentException: rate must be a positive number of requests/s,"
                            + " got -1.0",
                    refusal(compare, address, negativeRate, Agent.NOT_PREPARED));
            URI elsewhere = URI.create("http://127.0.0.2:" + server.getAddress().getPort() + "/");
            String outside = "target http://127.0.0.2:" + server.getAddress().getPort() + " (127.0.0.2:"
                    + server.getAddress().getPort() + ") is not in --allow-targets " + allowed;
            assertEquals(
                    outside,
                    refusal(compare, address, order("r6", compare.nodeId(), agentId, elsewhere), Agent.FORBIDDEN));
            assertTrue(
                    agentOut.toString(StandardCharsets.UTF_8).contains("agent a1: refused run r6: " + outside + "\n"),
                    agentOut.toString(StandardCharsets.UTF_8));
        }
        assertEquals(40, served.get(), "the two orders taken, 20 requests each, and nothing else");
    }

    @Test
    void aCountedRunWhoseReportIsDroppedEndsWithinTheFailureTimeoutNamingTheAgent() throws Exception {
        int port = ClusterProcesses.freePort();
        ClusterKey key = key("cluster.key");
        try (ClusterNode agentNode = ClusterNode.join(settings(port, List.of(), key), Role.AGENT, "a1", BUILD);
                Agent agent = new Agent(
                        agentNode,
                        new PrintStream(new ByteArrayOutputStream(), true),
                        AllowedTargets.parse(HOST, false))) {
            agentNode.vertx().eventBus().addOutboundInterceptor(context -> {
                if (!(context.body() instanceof Sealed sealed && sealed.message() instanceof AgentReport)) {
                    context.next(); // every report is lost on the way
                }
            });
            AgentsOptions.Request request = new AgentsOptions.Request(
                    1, Duration.ofSeconds(10), settings(port + 10, List.of(HOST + ":" + port), key));
            try (ClusterEngine engine = ClusterEngine.connect(
                    request, new PrintStream(new ByteArrayOutputStream(), true), "compare", BUILD)) {
                long start = System.nanoTime();
                Engine.RunLost lost = assertThrows(
                        Engine.RunLost.class,
                        () -> engine.runShares(
                                List.of(new Plan.Step("GET /", "GET", target(), Map.of())),
                                2,
                                null,
                                new Engine.Timing(0, 0, null, 200L, 5, 0),
                                new LoadRunner.Phases() {}));
                long tookMs = (System.nanoTime() - start) / 1_000_000;
                System.out.printf(
                        "a counted run whose report was dropped ended after %d ms: %s%n", tookMs, lost.getMessage());
                assertTrue(
                        lost.getMessage()
                                .matches("agent a1 \\(127\\.0\\.0\\.1\\) finished run \\w+ but its report did not"
                                        + " arrive within 3 s.*"),
                        lost.getMessage());
                assertTrue(tookMs >= FAILURE_TIMEOUT.toMillis() && tookMs < 30_000, tookMs + " ms");
            }
        }
        assertEquals(200, served.get(), "the run itself was made");
    }

    private static RunOrder order(String runId, String compare, String agent, URI target) {
        return new RunOrder(
                runId,
                compare,
                agent,
                List.of(new Plan.Step("GET /", "GET", target, Map.of())),
                1,
                null,
                new Engine.Timing(0, 0, null, 20L, 5, 1),
                0);
    }

    private static ClusterMessage ask(ClusterNode from, String address, Object message) throws Exception {
        return (message instanceof Sealed sealed
                        ? from.bus().request(address, sealed, 5000)
                        : from.bus().request(address, (ClusterMessage) message, 5000))
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    /** The agent's refusal of the message, which it must refuse with {@code code}. */
    private static String refusal(ClusterNode from, String address, Object message, int code) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> ask(from, address, message));
        ReplyException reply = assertInstanceOf(ReplyException.class, failed.getCause());
        assertEquals(code, reply.failureCode(), reply.getMessage());
        return reply.getMessage();
    }
}
