package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OnDemandThreadPoolTest {

    @Test
    void startsNoThreadBeforeTheFirstTask() {
        ThreadPoolExecutor pool =
                OnDemandThreadPool.create(2, 100, Thread.ofPlatform().factory());
        assertEquals(0, pool.getPoolSize());
        pool.shutdown();
    }

    @Test
    void reusesAnIdleThreadInsteadOfStartingAnother() throws Exception {
        ThreadPoolExecutor pool =
                OnDemandThreadPool.create(1, 100, Thread.ofPlatform().factory());
        for (int i = 0; i < 20; i++) {
            pool.submit(() -> {}).get(5, TimeUnit.SECONDS);
            awaitIdle(pool);
        }
        assertEquals(1, pool.getLargestPoolSize());
        pool.shutdown();
    }

    @Test
    void growsPastCoreWhileEveryThreadIsBusyThenQueuesAtMax() throws Exception {
        int max = 8;
        ThreadPoolExecutor pool =
                OnDemandThreadPool.create(1, max, Thread.ofPlatform().factory());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch allRan = new CountDownLatch(3 * max);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        for (int i = 0; i < 3 * max; i++) {
            pool.execute(() -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                allRan.countDown();
            });
        }
        assertEquals(max, pool.getPoolSize(), "one thread per blocked task, up to max");
        assertEquals(2 * max, pool.getQueue().size(), "the rest wait");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (running.get() < max && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        release.countDown();
        assertTrue(allRan.await(10, TimeUnit.SECONDS), "queued tasks ran once threads were free");
        assertEquals(max, mostAtOnce.get(), "never more than max at once");
        pool.shutdown();
    }

    @Test
    void refusesTasksOnceShutDown() {
        ThreadPoolExecutor pool =
                OnDemandThreadPool.create(1, 2, Thread.ofPlatform().factory());
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    }

    @Test
    void rejectsAnEmptyOrInvertedSize() {
        assertThrows(
                IllegalArgumentException.class,
                () -> OnDemandThreadPool.create(0, 2, Thread.ofPlatform().factory()));
        assertThrows(
                IllegalArgumentException.class,
                () -> OnDemandThreadPool.create(3, 2, Thread.ofPlatform().factory()));
    }

    /** Until the worker is back waiting for work: only then can the next task be handed to it. */
    private static void awaitIdle(ThreadPoolExecutor pool) throws InterruptedException {
        TransferQueue<Runnable> queue = (TransferQueue<Runnable>) pool.getQueue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!queue.hasWaitingConsumer() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }
}
