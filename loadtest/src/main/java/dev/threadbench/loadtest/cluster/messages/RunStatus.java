package dev.threadbench.loadtest.cluster.messages;

/**
 * An agent's answer to a {@link Heartbeat}: whether it is still running that run (false: its report is on its way, or
 * it never had it).
 */
public record RunStatus(String runId, boolean running) implements ClusterMessage {}
