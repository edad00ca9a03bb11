package dev.threadbench.common;

import java.time.Duration;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The platform worker pool both servers' {@code blocking} strategy sleeps on: a thread is started only
 * when a task finds no idle thread, up to {@code max}; beyond that tasks queue. Threads above
 * {@code core} stop after {@code keepAlive} idle, so a burst of 10,000 sleepers does not leave 10,000
 * threads behind.
 *
 * <p>A plain {@link ThreadPoolExecutor} cannot do this: with an unbounded queue it never grows past
 * core, and with core = max (what {@code Executors.newFixedThreadPool} does) it starts a new thread
 * for every task until max, idle threads or not, and keeps them all. Here the queue accepts a task only
 * when an idle thread takes it at once, so the executor starts a thread instead; once max threads are
 * busy, the rejection handler queues the task for the next free one.
 */
public final class OnDemandThreadPool {

    /** Keep-alive of threads above core (XNIO's and the JDK's usual 60 s). */
    public static final Duration KEEP_ALIVE = Duration.ofSeconds(60);

    private OnDemandThreadPool() {}

    public static ThreadPoolExecutor create(int core, int max, ThreadFactory threads) {
        if (core < 1 || max < core) {
            throw new IllegalArgumentException("need 1 <= core <= max, got core " + core + ", max " + max);
        }
        HandOffQueue queue = new HandOffQueue();
        return new ThreadPoolExecutor(
                core, max, KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS, queue, threads, (task, pool) -> {
                    if (pool.isShutdown()) {
                        throw new RejectedExecutionException("worker pool is shut down");
                    }
                    queue.enqueue(task);
                });
    }

    /** Threads kept when idle: a few per IO thread, never more than {@code max}. */
    public static int coreFor(int max) {
        return Math.min(max, 8 * Sizing.ioThreads());
    }

    private static final class HandOffQueue extends LinkedTransferQueue<Runnable> {
        /** Accepts only when an idle worker takes the task now; otherwise the executor starts a thread. */
        @Override
        public boolean offer(Runnable task) {
            return tryTransfer(task);
        }

        void enqueue(Runnable task) {
            super.offer(task);
        }
    }
}
