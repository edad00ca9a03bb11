package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.cluster.messages.AgentReport;
import dev.threadbench.loadtest.cluster.messages.ClusterMessage;
import dev.threadbench.loadtest.cluster.messages.Heartbeat;
import dev.threadbench.loadtest.cluster.messages.RunStatus;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A run's heartbeats, each answered by the agent's {@link RunStatus}: an agent that answers none for the failure
 * timeout, or that is done but whose report has not come within it, fails the run naming it ({@code lost}). So a run
 * ends on a bounded deadline whatever is lost: a host gone silent, a report dropped. Its state is touched on one
 * event-loop thread.
 */
final class RunWatch {

    static final long HEARTBEAT_MILLIS = 1000;

    private final ClusterNode node;
    private final String runId;
    private final List<ClusterNode.Member> team;
    private final CompletableFuture<AgentReport>[] pending;
    private final CompletableFuture<String> lost;
    private final long[] lastAnswerNanos;
    private final long[] acceptedNanos;
    private final long[] doneSinceNanos;
    private final long timeoutNanos;

    RunWatch(
            ClusterNode node,
            String runId,
            List<ClusterNode.Member> team,
            CompletableFuture<AgentReport>[] pending,
            CompletableFuture<String> lost) {
        this.node = node;
        this.runId = runId;
        this.team = team;
        this.pending = pending;
        this.lost = lost;
        this.timeoutNanos = node.settings().failureTimeout().toNanos();
        this.lastAnswerNanos = new long[team.size()];
        this.acceptedNanos = new long[team.size()];
        this.doneSinceNanos = new long[team.size()];
        Arrays.fill(lastAnswerNanos, System.nanoTime());
    }

    /** The agent took its order: from now on, "not running" means its report is on its way. */
    void accepted(int agent) {
        acceptedNanos[agent] = System.nanoTime();
    }

    /** Checks each agent still owing its report, and sends it the next heartbeat. */
    void beat() {
        long now = System.nanoTime();
        for (int i = 0; i < team.size(); i++) {
            if (pending[i].isDone()) {
                continue;
            }
            ClusterNode.Member agent = team.get(i);
            if (now - lastAnswerNanos[i] > timeoutNanos) {
                lost.complete("agent " + agent.label() + " has not answered for "
                        + TimeUnit.NANOSECONDS.toSeconds(now - lastAnswerNanos[i]) + " s");
            } else if (doneSinceNanos[i] != 0 && now - doneSinceNanos[i] > timeoutNanos) {
                lost.complete("agent " + agent.label() + " finished run " + runId + " but its report did not arrive"
                        + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s");
            }
            int index = i;
            long sent = now;
            node.bus()
                    .request(ClusterMessage.agentAddress(agent.nodeId()), new Heartbeat(runId), HEARTBEAT_MILLIS)
                    .onSuccess(reply -> {
                        lastAnswerNanos[index] = System.nanoTime();
                        boolean running = reply instanceof RunStatus status && status.running();
                        // "not running" counts once the agent took the order before this heartbeat left
                        if (!running
                                && acceptedNanos[index] != 0
                                && acceptedNanos[index] < sent
                                && doneSinceNanos[index] == 0) {
                            doneSinceNanos[index] = System.nanoTime();
                        }
                    });
        }
    }
}
