package dev.threadbench.loadtest.cluster.messages;

/** compare is done with the agent: it may serve another. */
public record Release(String compareNode) implements ClusterMessage {}
