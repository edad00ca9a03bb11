package dev.threadbench.loadtest.cluster.messages;

import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.util.List;

/**
 * One agent's share of a run: its connections (and rate, for the open model) against the steps, started
 * {@code startInMillis} after the agent receives the order (no agreement between the hosts' clocks is assumed).
 * {@code timing.iterations()}, when counted, is already this agent's share. Answered by {@link RunAccepted}; the
 * results come later as an {@link AgentReport}. Sealed as every message is ({@link Sealed}): signed, with its nonce
 * and issue time.
 *
 * @param agentNode the agent it is for: an order passed on to another agent is refused
 * @param startInMillis how long after receiving the order the agent starts (capped by the agent)
 */
public record RunOrder(
        String runId,
        String compareNode,
        String agentNode,
        List<Plan.Step> steps,
        int connections,
        Double rate,
        Engine.Timing timing,
        long startInMillis)
        implements ClusterMessage {}
