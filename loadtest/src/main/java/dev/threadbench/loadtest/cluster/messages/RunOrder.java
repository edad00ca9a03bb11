package dev.threadbench.loadtest.cluster.messages;

import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.plan.Plan;
import java.util.List;

/**
 * One agent's share of a run: its connections (and rate, for the open model) against the steps, started
 * {@code startInMillis} after the agent receives the order (no agreement between the hosts' clocks is assumed).
 * {@code timing.iterations()}, when counted, is already this agent's share. Answered by {@link RunAccepted}; the
 * results come later as an {@link AgentReport}.
 */
public record RunOrder(String runId, String controllerNode, List<Plan.Step> steps, int connections, Double rate,
                       Engine.Timing timing, long startInMillis) implements ClusterMessage {}
