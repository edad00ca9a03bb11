package dev.threadbench.loadtest.cluster;

import java.util.List;

/**
 * Where a node binds and how it finds the others.
 *
 * @param members       Hazelcast TCP-IP members to join; empty: wait to be joined
 * @param kubernetesDns a headless Service's DNS name for Hazelcast's Kubernetes discovery; null: TCP-IP
 */
public record ClusterSettings(String host, int port, List<String> members, String kubernetesDns) {

    public ClusterSettings {
        members = List.copyOf(members);
    }

    /** Whether some --join member is another node than this one (HOST, or HOST:PORT, at this host's address and port). */
    public boolean joinsOthers() {
        return members.stream().anyMatch(member -> {
            int colon = member.lastIndexOf(':');
            String memberHost = colon > 0 ? member.substring(0, colon) : member;
            int memberPort = colon > 0 ? Integer.parseInt(member.substring(colon + 1)) : port;
            try {
                return memberPort != port || !java.net.InetAddress.getByName(memberHost).getHostAddress().equals(host);
            } catch (java.net.UnknownHostException e) {
                return true; // not resolvable yet (a container not started): someone else
            }
        });
    }
}
