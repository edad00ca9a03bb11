package dev.threadbench.loadtest.cluster.messages;

/** compare's answer to an {@link AgentReport}: the agent sends it again until it hears this. */
public record ReportReceived(String runId) implements ClusterMessage {}
