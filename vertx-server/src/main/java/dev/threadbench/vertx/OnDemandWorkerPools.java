package dev.threadbench.vertx;

import dev.threadbench.common.OnDemandThreadPool;
import io.vertx.core.spi.ExecutorServiceFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x's worker pools as {@link OnDemandThreadPool}s, the same pool Undertow's workers run on,
 * instead of {@code Executors.newFixedThreadPool}, which starts a thread per task until all
 * {@code --workers} exist and keeps them. Found through META-INF/services (a Vert.x service provider);
 * Vert.x's thread factory still makes the threads, so they stay Vert.x worker threads.
 */
public final class OnDemandWorkerPools implements ExecutorServiceFactory {

    @Override
    public ExecutorService createExecutor(ThreadFactory threadFactory, Integer concurrency, Integer maxConcurrency) {
        return OnDemandThreadPool.create(OnDemandThreadPool.coreFor(maxConcurrency), maxConcurrency, threadFactory);
    }
}
