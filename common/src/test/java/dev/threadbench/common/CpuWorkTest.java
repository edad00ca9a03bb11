package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CpuWorkTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Generous above: the last clock read and a step of arithmetic past the mark, and the first call's JIT. */
    private static long atMostNanos(long micros) {
        return Duration.ofMillis(20).toNanos() + 2 * micros * 1000;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 50, 2_000, 30_000})
    void spendsAtLeastTheWorkInThisThreadsCpuTime(long micros) {
        CpuWork work = CpuWork.ofMicros(micros);
        long before = THREADS.getCurrentThreadCpuTime();
        work.run();
        long spent = THREADS.getCurrentThreadCpuTime() - before;
        assertTrue(spent >= micros * 1000, micros + " us of work took " + spent + " ns of this thread's CPU");
        assertTrue(spent <= atMostNanos(micros), micros + " us of work took " + spent + " ns of this thread's CPU");
    }

    @Test
    void onAVirtualThreadSpendsAtLeastTheWorkInWallTime() throws InterruptedException {
        long micros = 5_000;
        AtomicLong spent = new AtomicLong();
        Thread.ofVirtual()
                .start(() -> {
                    long before = System.nanoTime();
                    CpuWork.ofMicros(micros).run();
                    spent.set(System.nanoTime() - before);
                })
                .join();
        assertTrue(spent.get() >= micros * 1000, micros + " us of work took " + spent + " ns on a virtual thread");
    }

    @Test
    void noneIsZeroAndNegativeIsRefused() {
        assertSame(CpuWork.NONE, CpuWork.ofMicros(0));
        assertEquals(0, CpuWork.NONE.micros());
        assertEquals(50, CpuWork.ofMicros(50).micros());
        long before = THREADS.getCurrentThreadCpuTime();
        CpuWork.NONE.run();
        assertTrue(THREADS.getCurrentThreadCpuTime() - before
                < Duration.ofMillis(5).toNanos());
        assertThrows(IllegalArgumentException.class, () -> CpuWork.ofMicros(-1));
    }
}
