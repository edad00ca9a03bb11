package dev.threadbench.loadtest.cluster.messages;

/** compare is still there: an agent that hears none for a while stops its load, whatever the cluster says. */
public record Heartbeat(String runId) implements ClusterMessage {}
