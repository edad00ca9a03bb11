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
}
