package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterNodeTest {

    @Test
    void joinMembersGoToHazelcastAsAddressesSinceItDropsHostNamesNotOnTheBoundInterface() {
        assertEquals("127.0.0.1:5702", ClusterNode.resolved("localhost:5702"));
        assertEquals("127.0.0.1", ClusterNode.resolved("localhost"));
        assertEquals(
                "compare.invalid:5701",
                ClusterNode.resolved("compare.invalid:5701"),
                "not resolvable yet: left as given");

        Config config = ClusterNode.hazelcastConfig(
                ClusterSettings.insecure("127.0.0.1", 5701, List.of("localhost:5710"), null));
        assertEquals(
                List.of("127.0.0.1:5710"),
                config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
        assertFalse(config.getNetworkConfig().getJoin().getMulticastConfig().isEnabled());
        assertEquals(
                List.of("127.0.0.1"),
                List.copyOf(config.getNetworkConfig().getInterfaces().getInterfaces()));
    }

    @Test
    void kubernetesDiscoveryReplacesTheMemberList() {
        Config config = ClusterNode.hazelcastConfig(
                ClusterSettings.insecure("10.0.0.5", 5701, List.of(), "agents.ns.svc.cluster.local"));
        assertTrue(config.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled());
        assertEquals(
                "agents.ns.svc.cluster.local",
                config.getNetworkConfig().getJoin().getKubernetesConfig().getProperty("service-dns"));
        assertFalse(config.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled());
    }

    @Test
    void anAgentWaitsForOthersOnlyWhenItsJoinNamesAnotherNode() {
        assertTrue(ClusterSettings.insecure("127.0.0.1", 5701, List.of("127.0.0.1:5710"), null)
                .joinsOthers());
        assertTrue(ClusterSettings.insecure("127.0.0.1", 5701, List.of("compare.invalid"), null)
                .joinsOthers());
        assertFalse(
                ClusterSettings.insecure("127.0.0.1", 5701, List.of("127.0.0.1"), null)
                        .joinsOthers(),
                "itself");
        assertFalse(
                ClusterSettings.insecure("127.0.0.1", 5701, List.of("localhost:5701"), null)
                        .joinsOthers(),
                "itself by name");
        assertFalse(ClusterSettings.insecure("127.0.0.1", 5701, List.of(), null).joinsOthers());
    }

    @Test
    void aFailedJoinNamesItsCauseNeverNull() {
        assertEquals(
                "no cluster formed within 120 s (is another member's --cluster-port reachable, and is it joining"
                        + " too?)",
                ClusterNode.joinFailure(new java.util.concurrent.TimeoutException(), 120));
        assertEquals(
                "IllegalStateException: Address already in use",
                ClusterNode.joinFailure(
                        new java.util.concurrent.ExecutionException(
                                new IllegalStateException(null, new java.net.BindException("Address already in use"))),
                        120));
        assertEquals(
                "port 5801 refused",
                ClusterNode.joinFailure(
                        new java.util.concurrent.ExecutionException(new IllegalStateException("port 5801 refused")),
                        120));
        assertEquals(
                "java.lang.NullPointerException with no message",
                ClusterNode.joinFailure(new java.util.concurrent.ExecutionException(new NullPointerException()), 120));
    }
}
