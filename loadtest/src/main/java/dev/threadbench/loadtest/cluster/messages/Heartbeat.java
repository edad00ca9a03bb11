package dev.threadbench.loadtest.cluster.messages;

/**
 * compare is still there: an agent that hears none for a while stops its load, whatever the cluster says. Answered by
 * {@link RunStatus}: an agent that stops answering, or is done but whose report does not come, fails the run.
 */
public record Heartbeat(String runId) implements ClusterMessage {}
