package dev.threadbench.loadtest.cluster;

import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import io.vertx.ext.cluster.infinispan.impl.DataConverter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.infinispan.context.Flag;
import org.infinispan.manager.DefaultCacheManager;

/**
 * Vert.x's Infinispan cluster manager, which puts this node's own entries back when they are gone from the cluster's
 * maps. When a member is cut off, the coordinator on each side removes the other side's node infos and event bus
 * subscriptions, and vertx-infinispan never writes its own again. A merge usually restores them (the replicated caches
 * prefer an entry to its removal), but not when the sides overlapped: a node cut off from the coordinator but not yet
 * from compare comes back as a joiner, and the state it receives has lost its entries. Compare then can neither claim
 * it nor hear from it. Nor does a local read see every loss: with three nodes joining at once, an agent can end up
 * without compare's node info while compare's own copy has it, and then the agent's answers never reach compare
 * (docs/distributed.md, "Start order does not matter"). So every two seconds each node checks its node info
 * and its subscriptions, reads local to its replicated copy, and writes back whatever is missing; and it writes its
 * node info after each change of the members, once they have held for a check, and every ten seconds in any case (a
 * small entry no listener watches; subscriptions, which every node's listeners follow, only when missing).
 */
final class SelfHealingClusterManager extends InfinispanClusterManager {

    /** vertx-infinispan's cache of node infos (node id to the encoded {@link NodeInfo}), defined by ClusterNode. */
    static final String NODE_INFOS = "__vertx.nodeInfo";

    private static final long CHECK_MILLIS = 2_000;
    /** Every fifth check writes the node info even when nothing looks missing. */
    private static final int CHECKS_PER_REWRITE = 5;
    /** Longer than Infinispan's own timeouts (15 s remote, 10 s lock), so a check ends only once its writes have. */
    private static final long WRITE_MILLIS = 30_000;

    /** A check under way: the next waits for it, so that writes never queue up behind writes still waiting. */
    private final AtomicBoolean checking = new AtomicBoolean();

    /** This node's own subscriptions, as Vert.x registered them: address to registrations. */
    private final Map<String, Set<RegistrationInfo>> own = new ConcurrentHashMap<>();

    private final DefaultCacheManager caches;
    private volatile boolean joined;
    /** Checks since this node last wrote its node info. Read and written by the one check under way. */
    private int checksSinceWrite;
    /** The members at the last check; null before the first. Read and written by the one check under way. */
    private Set<String> membersSeen;
    /** The members to which this node last wrote its node info; null before the first write. */
    private Set<String> membersWritten;
    /** Kept here: the manager's own getter locks the manager, which its view-change handler holds while it cleans. */
    private volatile NodeInfo ownInfo;

    SelfHealingClusterManager(DefaultCacheManager caches) {
        super(caches);
        this.caches = caches;
    }

    @Override
    public void init(Vertx vertx) {
        super.init(vertx);
        // on a worker, never an event loop: the cache calls may wait on the cluster
        vertx.setPeriodic(CHECK_MILLIS, id -> {
            if (checking.compareAndSet(false, true)) {
                vertx.executeBlocking(this::putBackWhatIsMissing).onComplete(done -> checking.set(false));
            }
        });
    }

    @Override
    public void setNodeInfo(NodeInfo info, Completable<Void> promise) {
        // checked only once written: a put still waiting is not missing, and another would queue behind it
        super.setNodeInfo(info, (done, failure) -> {
            if (failure == null) {
                ownInfo = info;
            }
            promise.complete(done, failure);
        });
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
        super.addRegistration(address, registration, (done, failure) -> {
            if (failure == null) {
                own.computeIfAbsent(address, key -> ConcurrentHashMap.newKeySet())
                        .add(registration);
            }
            promise.complete(done, failure);
        });
    }

    @Override
    public void removeRegistration(String address, RegistrationInfo registration, Completable<Void> promise) {
        Set<RegistrationInfo> registrations = own.get(address);
        if (registrations != null) {
            registrations.remove(registration);
        }
        super.removeRegistration(address, registration, promise);
    }

    /** On a worker thread: every call into the manager from here waits, so none runs on a thread the cluster needs. */
    private Void putBackWhatIsMissing() throws Exception {
        NodeInfo info = ownInfo;
        if (!joined || info == null) {
            return null; // not in the cluster yet, or leaving it
        }
        Set<String> members = Set.copyOf(getNodes());
        boolean settled = members.equals(membersSeen); // the same two seconds ago: not in the middle of a merge
        membersSeen = members;
        checksSinceWrite++;
        if (((settled && !members.equals(membersWritten))
                        || checksSinceWrite >= CHECKS_PER_REWRITE
                        || !ownInfoPresent())
                && joined) {
            writeNodeInfo(info);
            membersWritten = members; // only once written: a failed put is tried again next time
            checksSinceWrite = 0;
        }
        for (Map.Entry<String, Set<RegistrationInfo>> entry : own.entrySet()) {
            Promise<List<RegistrationInfo>> listed = Promise.promise();
            getRegistrations(entry.getKey(), listed);
            List<RegistrationInfo> present = awaitResult(listed.future(), CHECK_MILLIS);
            for (RegistrationInfo registration : entry.getValue()) {
                if (joined
                        && !present.contains(registration)
                        && entry.getValue().contains(registration)) {
                    Promise<Void> added = Promise.promise();
                    super.addRegistration(entry.getKey(), registration, added);
                    awaitResult(added.future(), WRITE_MILLIS);
                }
            }
        }
        return null;
    }

    /**
     * The manager's own write, straight to its cache: the manager's setter takes the manager's lock, which its
     * view-change handler holds while it removes the entries of members that left, waiting on the cluster.
     */
    private void writeNodeInfo(NodeInfo info) throws Exception {
        awaitResult(
                Future.fromCompletionStage(caches.<String, byte[]>getCache(NODE_INFOS)
                        .getAdvancedCache()
                        .withFlags(Flag.IGNORE_RETURN_VALUES)
                        .putAsync(getNodeId(), DataConverter.toCachedObject(info))),
                WRITE_MILLIS);
    }

    private boolean ownInfoPresent() throws Exception {
        Promise<NodeInfo> found = Promise.promise();
        getNodeInfo(getNodeId(), found);
        return awaitResult(found.future().map(true).otherwise(false), CHECK_MILLIS);
    }

    private static <T> T awaitResult(Future<T> future, long millis) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(millis, TimeUnit.MILLISECONDS);
    }
}
