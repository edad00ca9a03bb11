package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.dns.DNS_PING;
import org.junit.jupiter.api.Test;

class ClusterNodeTest {

    @Test
    void compareAddressSortsBeforeEveryAgentsSoThatItFoundsTheClusterWhenAllStartTogether() {
        for (int i = 0; i < 1000; i++) {
            org.jgroups.util.UUID compare = MembershipStack.rankedAddress(ClusterNode.Role.COMPARE);
            org.jgroups.util.UUID agent = MembershipStack.rankedAddress(ClusterNode.Role.AGENT);
            assertTrue(compare.compareTo(agent) < 0, compare + " vs " + agent);
            assertTrue(compare.compareTo(MembershipStack.rankedAddress(ClusterNode.Role.COMPARE)) != 0);
        }
    }

    @Test
    void joinMembersAreHostAndPortTheClusterPortByDefault() {
        assertEquals(new InetSocketAddress("127.0.0.1", 5702), MembershipStack.address("localhost:5702", 5701));
        assertEquals(new InetSocketAddress("127.0.0.1", 5701), MembershipStack.address("localhost", 5701));
        assertTrue(MembershipStack.address("compare.invalid", 5701).isUnresolved(), "not resolvable yet: kept by name");
    }

    @Test
    void discoveryIsTheJoinMembersOrKubernetesDns() throws Exception {
        JChannel joined = MembershipStack.channel(
                ClusterSettings.insecure("127.0.0.1", 5701, List.of("localhost:5710"), null), ClusterNode.Role.AGENT);
        TCPPING tcpPing = joined.getProtocolStack().findProtocol(TCPPING.class);
        assertEquals("[127.0.0.1:5710]", tcpPing.getInitialHosts().toString());
        joined.close();

        JChannel kubernetes = MembershipStack.channel(
                ClusterSettings.insecure("127.0.0.1", 5701, List.of(), "threadbench-cluster"), ClusterNode.Role.AGENT);
        assertEquals(
                "threadbench-cluster",
                kubernetes.getProtocolStack().findProtocol(DNS_PING.class).getValue("dns_query"));
        assertNull(kubernetes.getProtocolStack().findProtocol(TCPPING.class));
        kubernetes.close();
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

    @Test
    void aJoinThatTimedOutInsideTheClusterIsToldApartFromOneThatCannotWork() {
        assertTrue(ClusterNode.timedOut(new java.util.concurrent.CompletionException(
                new org.infinispan.util.concurrent.TimeoutException("ISPN000476: Timed out waiting for responses"))));
        assertTrue(ClusterNode.timedOut(new java.util.concurrent.TimeoutException()));
        assertFalse(ClusterNode.timedOut(new java.util.concurrent.ExecutionException(
                new IllegalStateException(null, new java.net.BindException("Address already in use")))));
    }
}
