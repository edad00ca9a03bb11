package dev.threadbench.loadtest.cluster.messages;

/** Stop the run's load now: another agent failed, or compare is stopping. */
public record StopRun(String runId, String reason) implements ClusterMessage {}
