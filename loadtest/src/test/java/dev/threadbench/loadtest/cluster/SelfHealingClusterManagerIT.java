package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.threadbench.loadtest.cluster.ClusterNode.Role;
import io.vertx.core.Promise;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on loopback: what a coordinator removes for a member it saw leave (its node info and its event bus
 * subscriptions, which vertx-infinispan never writes again) is back within a few seconds, put there by that member.
 */
class SelfHealingClusterManagerIT {

    private static final String HOST = "127.0.0.1";
    private static final String BUILD = "1.0 built 2026-12-07T00:00:00Z";
    private static final String ADDRESS = "threadbench.test.heal";
    private static final Duration BACK_WITHIN = Duration.ofSeconds(10);

    @Test
    void aMembersNodeInfoAndSubscriptionsRemovedByAnotherComeBack() throws Exception {
        int port = ClusterProcesses.freePort();
        try (ClusterNode agent = ClusterNode.join(
                        ClusterSettings.insecure(HOST, port, List.of(), null), Role.AGENT, "a1", BUILD);
                ClusterNode compare = ClusterNode.join(
                        ClusterSettings.insecure(HOST, port + 10, List.of(HOST + ":" + port), null),
                        Role.COMPARE,
                        "compare",
                        BUILD)) {
            agent.vertx()
                    .eventBus()
                    .consumer(ADDRESS, message -> {})
                    .completion()
                    .await(10, TimeUnit.SECONDS);
            InfinispanClusterManager seenFromCompare =
                    (InfinispanClusterManager) ((VertxInternal) compare.vertx()).clusterManager();
            List<RegistrationInfo> registrations = await(seenFromCompare, ADDRESS);
            assertEquals(1, registrations.size(), "the agent's subscription, seen from compare");

            for (RegistrationInfo registration : registrations) {
                Promise<Void> removed = Promise.promise();
                seenFromCompare.removeRegistration(ADDRESS, registration, removed);
                removed.future().await(10, TimeUnit.SECONDS);
            }
            seenFromCompare.getCacheContainer().getCache("__vertx.nodeInfo").remove(agent.nodeId());
            assertEquals(List.of(), registrations(seenFromCompare, ADDRESS), "removed, as a coordinator does");
            assertNull(seenFromCompare
                    .getCacheContainer()
                    .getCache("__vertx.nodeInfo")
                    .get(agent.nodeId()));

            long deadline = System.nanoTime() + BACK_WITHIN.toNanos();
            while ((registrations(seenFromCompare, ADDRESS).isEmpty()
                            || seenFromCompare
                                            .getCacheContainer()
                                            .getCache("__vertx.nodeInfo")
                                            .get(agent.nodeId())
                                    == null)
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(registrations, registrations(seenFromCompare, ADDRESS), "the subscription, back");
            assertNotNull(
                    seenFromCompare
                            .getCacheContainer()
                            .getCache("__vertx.nodeInfo")
                            .get(agent.nodeId()),
                    "the agent's node info, back");
        }
    }

    private static List<RegistrationInfo> await(InfinispanClusterManager manager, String address) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<RegistrationInfo> found = registrations(manager, address);
        while (found.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            found = registrations(manager, address);
        }
        return found;
    }

    private static List<RegistrationInfo> registrations(InfinispanClusterManager manager, String address)
            throws Exception {
        Promise<List<RegistrationInfo>> promise = Promise.promise();
        manager.getRegistrations(address, promise);
        return promise.future().await(10, TimeUnit.SECONDS);
    }
}
