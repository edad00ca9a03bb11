package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import io.vertx.core.Future;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.core.shareddata.Lock;
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

    private final Lock lock;

    private ClusterLock(Lock lock) {
        this.lock = lock;
    }

    /** Takes the lock for {@code node} and names it the holder; another compare or run holding it is refused. */
    static ClusterLock take(ClusterNode node) {
        AsyncMap<String, String> holders = await(node.vertx().sharedData().<String, String>getAsyncMap(NAME));
        Lock lock;
        try {
            lock = node.vertx()
                    .sharedData()
                    .getLockWithTimeout(NAME, 2000)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            String holder = await(holders.get("holder"));
            throw new UsageException("--agents: another compare or run has this cluster ("
                    + (holder == null ? "unknown" : holder) + "): one compare or run at a time on these agents");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
        await(holders.put("holder", node.name() + " (" + node.host() + ")"));
        return new ClusterLock(lock);
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new RunFailure("the cluster did not answer: "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted");
        }
    }

    @Override
    public void close() {
        lock.release();
    }
}
