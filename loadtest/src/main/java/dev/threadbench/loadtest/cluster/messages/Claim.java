package dev.threadbench.loadtest.cluster.messages;

/**
 * compare asks an agent to take orders from it alone until it releases it or leaves; answered by {@link ClaimAnswer}.
 */
public record Claim(String build, String compareNode, String compareName, String compareHost)
        implements ClusterMessage {}
