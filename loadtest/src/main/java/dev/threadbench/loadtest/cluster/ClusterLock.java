package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.shareddata.Lock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.infinispan.Cache;

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
    /** How long a lock no holder names is tried again before compare gives up. */
    static final Duration UNNAMED_WAIT = Duration.ofSeconds(20);
    /** How long naming the holder, and removing the name at the end, may wait on the cluster. */
    static final Duration HOLDER_NAME_WAIT = Duration.ofSeconds(5);

    private final Lock lock;
    private final Cache<String, String> holders;
    private final String holder;

    private ClusterLock(Lock lock, Cache<String, String> holders, String holder) {
        this.lock = lock;
        this.holders = holders;
        this.holder = holder;
    }

    /**
     * Takes the lock for {@code node} and names it the holder; another compare or run holding it is refused. A lock
     * that no holder names is tried again for up to {@link #UNNAMED_WAIT}: the cluster's lock cache refuses for a
     * moment while a member joins or after a false suspicion (a compare on 2 busy cores was refused so, naming no
     * holder, with nobody holding it), and another compare names itself right after it takes the lock.
     */
    static ClusterLock take(ClusterNode node) {
        Cache<String, String> holders = node.holders();
        long deadline = System.nanoTime() + UNNAMED_WAIT.toNanos();
        Lock lock = null;
        while (lock == null) {
            CompletableFuture<Lock> asked = node.vertx()
                    .sharedData()
                    .getLockWithTimeout(NAME, 2000)
                    .toCompletionStage()
                    .toCompletableFuture();
            try {
                lock = asked.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                asked.thenAccept(Lock::release); // taken too late to be used: not kept from the next try
                String holder = holders.get(HOLDER);
                if (holder != null || System.nanoTime() >= deadline) {
                    throw new UsageException("--agents: another compare or run has this cluster ("
                            + (holder == null
                                    ? "unknown: none named itself within " + UNNAMED_WAIT.toSeconds() + " s"
                                    : holder)
                            + "): one compare or run at a time on these agents");
                }
                AgentClaims.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunFailure("interrupted");
            }
        }
        String holder = node.name() + " (" + node.host() + ")";
        try {
            holders.putAsync(HOLDER, holder).get(HOLDER_NAME_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            lock.release();
            throw new RunFailure("the cluster did not take this " + node.name() + "'s name as the lock's holder within "
                    + HOLDER_NAME_WAIT.toSeconds() + " s" + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            lock.release();
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
        return new ClusterLock(lock, holders, holder);
    }

    /**
     * Lets the lock go, and its holder's name with it, waiting for the name's removal at most
     * {@link #HOLDER_NAME_WAIT}: a cluster still merging retries a write for as long as its members change (a compare
     * waited over 2 minutes so). A name left behind is overwritten by the next holder.
     */
    @Override
    public void close() {
        try {
            holders.removeAsync(HOLDER, holder).get(HOLDER_NAME_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // left, or the cluster is going: the next holder writes its own name
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.release();
        }
    }
}
