package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.shareddata.Lock;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The cluster-wide lock a compare or run holds while it has agents (Infinispan's, released when its holder leaves the
 * cluster): one at a time per cluster. Its holder is named beside it, so that a second is refused in one line naming
 * it.
 */
final class ClusterLock implements AutoCloseable {

    static final String NAME = "threadbench.compare";
    /**
     * Who holds the lock: a cache every node defines when it starts ({@link ClusterNode#cacheManager}), not one made
     * cluster-wide on first use, which a node joining at that moment could fail to make ("no matching cache
     * configuration") and with it the compare that asked.
     */
    static final String HOLDERS = "threadbench.holders";

    private static final String HOLDER = "holder";

    private final Lock lock;
    private final Map<String, String> holders;
    private final String holder;

    private ClusterLock(Lock lock, Map<String, String> holders, String holder) {
        this.lock = lock;
        this.holders = holders;
        this.holder = holder;
    }

    /** Takes the lock for {@code node} and names it the holder; another compare or run holding it is refused. */
    static ClusterLock take(ClusterNode node) {
        Map<String, String> holders = node.holders();
        Lock lock;
        try {
            lock = node.vertx()
                    .sharedData()
                    .getLockWithTimeout(NAME, 2000)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            String holder = holders.get(HOLDER);
            throw new UsageException("--agents: another compare or run has this cluster ("
                    + (holder == null ? "unknown" : holder) + "): one compare or run at a time on these agents");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
        String holder = node.name() + " (" + node.host() + ")";
        try {
            holders.put(HOLDER, holder);
        } catch (RuntimeException e) {
            lock.release();
            throw new RunFailure("the cluster did not answer: " + e.getMessage());
        }
        return new ClusterLock(lock, holders, holder);
    }

    @Override
    public void close() {
        try {
            holders.remove(HOLDER, holder);
        } catch (RuntimeException e) {
            // left, or the cluster is going: the next holder writes its own name
        } finally {
            lock.release();
        }
    }
}
