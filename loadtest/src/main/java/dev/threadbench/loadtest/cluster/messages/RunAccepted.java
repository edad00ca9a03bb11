package dev.threadbench.loadtest.cluster.messages;

public record RunAccepted(String runId) implements ClusterMessage {}
