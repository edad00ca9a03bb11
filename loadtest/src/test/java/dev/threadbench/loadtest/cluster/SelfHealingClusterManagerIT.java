package dev.threadbench.loadtest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.threadbench.loadtest.cluster.ClusterNode.Role;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on loopback: what a coordinator removes for a member it saw leave (its node info and its event bus
 * subscriptions, which vertx-infinispan never writes again) is back within a few seconds, put there by that member;
 * so is a node info lost from another member's copy alone.
 */
class SelfHealingClusterManagerIT {

    private static final String HOST = "127.0.0.1";
    private static final String BUILD = "1.0 built 2026-12-07T00:00:00Z";
    private static final String ADDRESS = "threadbench.test.heal";
    private static final Duration BACK_WITHIN = Duration.ofSeconds(10);
    /** Three checks: the members held for one, and compare has written its node info for them. */
    private static final Duration SETTLED = Duration.ofSeconds(6);
    /** Compare's node info is written every ten seconds; a check comes every two. */
    private static final Duration REWRITTEN_WITHIN = Duration.ofSeconds(20);

    /** An agent listening on {@link #ADDRESS} with {@code answers}, and a compare that joined it, both on loopback. */
    private record TwoNodes(ClusterNode agent, ClusterNode compare) implements AutoCloseable {

        static TwoNodes join(Handler<Message<String>> answers) throws Exception {
            int port = ClusterProcesses.freePort();
            ClusterNode agent =
                    ClusterNode.join(ClusterSettings.insecure(HOST, port, List.of(), null), Role.AGENT, "a1", BUILD);
            try {
                agent.vertx().eventBus().consumer(ADDRESS, answers).completion().await(10, TimeUnit.SECONDS);
                return new TwoNodes(
                        agent,
                        ClusterNode.join(
                                ClusterSettings.insecure(HOST, port + 10, List.of(HOST + ":" + port), null),
                                Role.COMPARE,
                                "compare",
                                BUILD));
            } catch (Exception e) {
                agent.close();
                throw e;
            }
        }

        @Override
        public void close() {
            compare.close();
            agent.close();
        }
    }

    @Test
    void aMembersNodeInfoAndSubscriptionsRemovedByAnotherComeBack() throws Exception {
        try (TwoNodes nodes = TwoNodes.join(message -> {})) {
            ClusterNode agent = nodes.agent();
            ClusterNode compare = nodes.compare();
            InfinispanClusterManager seenFromCompare =
                    (InfinispanClusterManager) ((VertxInternal) compare.vertx()).clusterManager();
            List<RegistrationInfo> registrations = await(seenFromCompare, ADDRESS);
            assertEquals(1, registrations.size(), "the agent's subscription, seen from compare");

            for (RegistrationInfo registration : registrations) {
                Promise<Void> removed = Promise.promise();
                seenFromCompare.removeRegistration(ADDRESS, registration, removed);
                removed.future().await(10, TimeUnit.SECONDS);
            }
            Cache<String, byte[]> comparesCopy = nodeInfos(compare);
            comparesCopy.remove(agent.nodeId());
            assertEquals(List.of(), registrations(seenFromCompare, ADDRESS), "removed, as a coordinator does");
            assertNull(comparesCopy.get(agent.nodeId()));

            long deadline = System.nanoTime() + BACK_WITHIN.toNanos();
            while ((registrations(seenFromCompare, ADDRESS).isEmpty() || comparesCopy.get(agent.nodeId()) == null)
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(registrations, registrations(seenFromCompare, ADDRESS), "the subscription, back");
            assertNotNull(comparesCopy.get(agent.nodeId()), "the agent's node info, back");
        }
    }

    /**
     * The loss a node's own read cannot see: compare's node info gone from the agent's copy alone, so that the agent's
     * answers have nowhere to go while compare finds its entry in place. Compare writes it again within ten seconds.
     */
    @Test
    void compareInfoLostFromAnAgentsCopyAloneComesBackAndTheAgentsAnswersArrive() throws Exception {
        try (TwoNodes nodes = TwoNodes.join(message -> message.reply("answer"))) {
            ClusterNode agent = nodes.agent();
            ClusterNode compare = nodes.compare();
            assertEquals(
                    1,
                    await((InfinispanClusterManager) ((VertxInternal) compare.vertx()).clusterManager(), ADDRESS)
                            .size());
            // no question yet: once the agent has connected to compare to answer, it no longer needs the entry
            Thread.sleep(SETTLED.toMillis()); // past compare's write once the two members have held

            Cache<String, byte[]> agentsCopy = nodeInfos(agent);
            agentsCopy.getAdvancedCache().withFlags(Flag.CACHE_MODE_LOCAL).remove(compare.nodeId());
            assertNull(agentsCopy.get(compare.nodeId()), "gone from the agent's copy");
            assertNotNull(nodeInfos(compare).get(compare.nodeId()), "still in compare's own");

            long lost = System.nanoTime();
            String answer = null;
            while (answer == null && System.nanoTime() - lost < REWRITTEN_WITHIN.toNanos()) {
                try {
                    answer = ask(compare);
                } catch (Exception e) {
                    // the answer had nowhere to go: not yet written again
                }
            }
            System.out.printf(
                    "compare's node info lost from the agent's copy: answers back after %.1f s%n",
                    (System.nanoTime() - lost) / 1e9);
            assertEquals("answer", answer, "answered again within " + REWRITTEN_WITHIN.toSeconds() + " s");
            assertNotNull(agentsCopy.get(compare.nodeId()), "back in the agent's copy");
        }
    }

    private static String ask(ClusterNode compare) throws Exception {
        return compare.vertx()
                .eventBus()
                .<String>request(ADDRESS, "question", new DeliveryOptions().setSendTimeout(1_000))
                .await(5, TimeUnit.SECONDS)
                .body();
    }

    private static Cache<String, byte[]> nodeInfos(ClusterNode node) {
        return (Cache<String, byte[]>) ((InfinispanClusterManager) ((VertxInternal) node.vertx()).clusterManager())
                .getCacheContainer()
                .<String, byte[]>getCache(SelfHealingClusterManager.NODE_INFOS);
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
