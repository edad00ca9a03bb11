package dev.threadbench.loadtest.cluster.messages;

/**
 * A request's refusal, sealed like any answer (Vert.x's own failure replies are not): the requester sees it as a failed
 * request with this code and reason.
 */
public record Refused(int code, String reason) implements ClusterMessage {}
