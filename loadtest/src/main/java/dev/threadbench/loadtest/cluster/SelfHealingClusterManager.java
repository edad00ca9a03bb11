package dev.threadbench.loadtest.cluster;

import io.vertx.core.Completable;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.infinispan.manager.DefaultCacheManager;

/**
 * Vert.x's Infinispan cluster manager, which puts this node's own entries back when they are gone from the cluster's
 * maps. When a member is cut off, the coordinator on each side removes the other side's node infos and event bus
 * subscriptions, and vertx-infinispan never writes its own again. A merge usually restores them (the replicated caches
 * prefer an entry to its removal), but not when the sides overlapped: a node cut off from the coordinator but not yet
 * from compare comes back as a joiner, and the state it receives has lost its entries. Compare then can neither claim
 * it nor hear from it. So every two seconds each node checks its node info and its subscriptions, reads local to its
 * replicated copy, and writes back whatever is missing.
 */
final class SelfHealingClusterManager extends InfinispanClusterManager {

    private static final long CHECK_MILLIS = 2_000;

    /** This node's own subscriptions, as Vert.x registered them: address to registrations. */
    private final Map<String, Set<RegistrationInfo>> own = new ConcurrentHashMap<>();

    private volatile boolean joined;

    SelfHealingClusterManager(DefaultCacheManager caches) {
        super(caches);
    }

    @Override
    public void init(Vertx vertx) {
        super.init(vertx);
        vertx.setPeriodic(CHECK_MILLIS, id -> putBackWhatIsMissing());
    }

    @Override
    public void join(Completable<Void> promise) {
        super.join((done, failure) -> {
            joined = failure == null;
            promise.complete(done, failure);
        });
    }

    @Override
    public void leave(Completable<Void> promise) {
        joined = false;
        super.leave(promise);
    }

    @Override
    public void addRegistration(String address, RegistrationInfo registration, Completable<Void> promise) {
        own.computeIfAbsent(address, key -> ConcurrentHashMap.newKeySet()).add(registration);
        super.addRegistration(address, registration, promise);
    }

    @Override
    public void removeRegistration(String address, RegistrationInfo registration, Completable<Void> promise) {
        Set<RegistrationInfo> registrations = own.get(address);
        if (registrations != null) {
            registrations.remove(registration);
        }
        super.removeRegistration(address, registration, promise);
    }

    private void putBackWhatIsMissing() {
        NodeInfo info = getNodeInfo();
        if (!joined || info == null) {
            return; // not in the cluster yet, or leaving it
        }
        getNodeInfo(getNodeId(), (found, failure) -> {
            if (joined && failure != null) {
                setNodeInfo(info, (done, ignored) -> {});
            }
        });
        own.forEach((address, registrations) -> getRegistrations(address, (found, failure) -> {
            if (!joined || failure != null) {
                return;
            }
            for (RegistrationInfo registration : registrations) {
                if (!found.contains(registration) && registrations.contains(registration)) {
                    super.addRegistration(address, registration, (done, ignored) -> {});
                }
            }
        }));
    }
}
