package dev.threadbench.loadtest.cluster;

import java.time.Duration;
import java.util.List;

/**
 * Where a node binds, how it finds the others, and what secures it.
 *
 * @param members        HOST[:PORT] members to join over TCP; empty: wait to be joined
 * @param kubernetesDns  a headless Service's DNS name to find the members by (DNS_PING); null: the members
 * @param busPort        the event bus's port on {@code host}; 0: any free one
 * @param key            the cluster key (TLS on the membership layer and the event bus, MACs on orders); null:
 *                       --insecure
 * @param failureTimeout how long a silent member (or compare, to an agent; or an agent, to compare) is waited for
 *                       before it counts as gone
 */
public record ClusterSettings(
        String host,
        int port,
        List<String> members,
        String kubernetesDns,
        int busPort,
        ClusterKey key,
        Duration failureTimeout) {

    /** The default failure timeout: a busy agent (near saturation, in a long GC pause) does not trip it. */
    public static final Duration DEFAULT_FAILURE_TIMEOUT = Duration.ofSeconds(10);

    public ClusterSettings {
        members = List.copyOf(members);
    }

    /** Loopback-style settings for tests and tools: no key, any bus port, the default failure timeout. */
    static ClusterSettings insecure(String host, int port, List<String> members, String kubernetesDns) {
        return new ClusterSettings(host, port, members, kubernetesDns, 0, null, DEFAULT_FAILURE_TIMEOUT);
    }

    /**
     * Whether some --join member is another node than this one (HOST, or HOST:PORT, at this host's address and port).
     */
    public boolean joinsOthers() {
        return members.stream().anyMatch(member -> {
            int colon = member.lastIndexOf(':');
            String memberHost = colon > 0 ? member.substring(0, colon) : member;
            int memberPort = colon > 0 ? Integer.parseInt(member.substring(colon + 1)) : port;
            try {
                return memberPort != port
                        || !java.net.InetAddress.getByName(memberHost)
                                .getHostAddress()
                                .equals(host);
            } catch (java.net.UnknownHostException e) {
                return true; // not resolvable yet (a container not started): someone else
            }
        });
    }

    /**
     * The one line a node without a key prints as it joins (agent, compare, run: {@code who}); null with a key.
     */
    public String insecureWarning(String who) {
        return key != null
                ? null
                : who + ": WARNING: --insecure: no cluster key, so no TLS and no signed orders: whoever reaches " + host
                        + " on the cluster's ports can join this cluster and order its agents' load";
    }

    /** The fingerprint a node without a key (--insecure) publishes. */
    public static final String NO_KEY = "none";

    /** The key's fingerprint, or {@link #NO_KEY}: published by each node, compared when compare claims an agent. */
    public String keyFingerprint() {
        return key == null ? NO_KEY : key.fingerprint();
    }
}
