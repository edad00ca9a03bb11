package dev.threadbench.loadtest.cluster.messages;

import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.util.List;

/**
 * One agent's share of a run: its connections (and rate, for the open model) against the steps, started
 * {@code startInMillis} after the agent receives the order (no agreement between the hosts' clocks is assumed).
 * {@code timing.iterations()}, when counted, is already this agent's share. Answered by {@link RunAccepted}; the
 * results come later as an {@link AgentReport}.
 *
 * @param agentNode the agent it is for: an order passed on to another agent is refused
 * @param nonce     new for every order: an agent refuses one it has seen
 * @param issuedAtMillis when compare made the order, on its clock (epoch milliseconds): an agent refuses an order
 *                  issued too long ago, or too far ahead of its own clock
 * @param startInMillis how long after receiving the order the agent starts (capped by the agent)
 * @param mac       HMAC-SHA256 under the cluster key of {@link #signedContent()}, base64; null without a key
 *                  (--insecure)
 */
public record RunOrder(
        String runId,
        String compareNode,
        String agentNode,
        String nonce,
        long issuedAtMillis,
        List<Plan.Step> steps,
        int connections,
        Double rate,
        Engine.Timing timing,
        long startInMillis,
        String mac)
        implements ClusterMessage {

    /**
     * What the MAC covers: every field but the MAC, in one canonical JSON encoding (properties and map keys sorted).
     */
    public byte[] signedContent() {
        return MessageCodec.canonical(withMac(null));
    }

    public RunOrder withMac(String newMac) {
        return new RunOrder(
                runId,
                compareNode,
                agentNode,
                nonce,
                issuedAtMillis,
                steps,
                connections,
                rate,
                timing,
                startInMillis,
                newMac);
    }
}
