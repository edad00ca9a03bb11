package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.messages.Claim;
import dev.threadbench.loadtest.cluster.messages.ClaimAnswer;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Refusal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An agent and a compare of different builds, in one JVM: each refuses the other with one line naming both builds. */
class BuildConflictIT {

    private static final String OLD = "0.9 built 2026-11-01T00:00:00Z";
    private static final String NEW = "1.0 built 2026-12-01T00:00:00Z";

    @Test
    void anAgentAndACompareOfDifferentBuildsRefuseEachOther() throws Exception {
        int port = ClusterProcesses.freePort();
        ByteArrayOutputStream agentOut = new ByteArrayOutputStream();
        ByteArrayOutputStream compareOut = new ByteArrayOutputStream();
        ClusterSettings settings = ClusterSettings.insecure("127.0.0.1", port, List.of(), null);
        try (ClusterNode agentNode = ClusterNode.join(settings, ClusterNode.Role.AGENT, "old-agent", OLD);
                Agent agent = new Agent(
                        agentNode,
                        new PrintStream(agentOut, true, StandardCharsets.UTF_8),
                        AllowedTargets.parse("127.0.0.1", false))) {
            AgentsOptions.Request request = new AgentsOptions.Request(
                    1,
                    Duration.ofSeconds(3),
                    ClusterSettings.insecure("127.0.0.1", port + 10, List.of("127.0.0.1:" + port), null));

            UsageException refused = assertThrows(
                    UsageException.class,
                    () -> ClusterEngine.connect(
                                    request, new PrintStream(compareOut, true, StandardCharsets.UTF_8), "compare", NEW)
                            .close());
            assertEquals(
                    "--agents 1: only 0 agent(s) joined in time (none), 1 refused (see above)", refused.getMessage());
            assertTrue(
                    compareOut
                            .toString(StandardCharsets.UTF_8)
                            .contains("compare: refused agent old-agent (127.0.0.1): it runs" + " build " + OLD
                                    + ", this compare runs " + NEW + ": run one build on every host"),
                    compareOut.toString());

            // and the agent, asked all the same, refuses the compare
            try (ClusterNode compareNode =
                    ClusterNode.join(request.cluster(), ClusterNode.Role.COMPARE, "new-compare", NEW)) {
                ClaimAnswer answer = (ClaimAnswer) compareNode
                        .bus()
                        .request(
                                ClusterMessage.agentAddress(agentNode.nodeId()),
                                new Claim(NEW, compareNode.nodeId(), "new-compare", "127.0.0.1"),
                                10_000)
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(15, TimeUnit.SECONDS);
                assertEquals(Refusal.OTHER_BUILD, answer.refusal());
                assertEquals(
                        "compare new-compare runs build " + NEW + ", agent old-agent runs " + OLD
                                + ": run one build on every host",
                        answer.description());
                assertTrue(
                        agentOut.toString(StandardCharsets.UTF_8).contains("agent old-agent: refused new-compare: "),
                        agentOut.toString());
            }
        }
    }
}
