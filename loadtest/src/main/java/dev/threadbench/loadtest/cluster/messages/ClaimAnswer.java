package dev.threadbench.loadtest.cluster.messages;

/** @param refusal null when the agent is now the caller's; else why not, in one line */
public record ClaimAnswer(String build, String refusal) implements ClusterMessage {}
