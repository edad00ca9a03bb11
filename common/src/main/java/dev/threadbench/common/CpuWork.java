package dev.threadbench.common;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * --work-us: a fixed amount of CPU time spent on the calling thread before it answers, the stand-in for what a real
 * handler computes. Measured on the thread's own CPU clock, so that time the thread spends descheduled does not count
 * as work. A virtual thread has no CPU clock of its own (the bean gives -1): it spins on wall time, which is its
 * carrier's CPU time unless the OS preempts the carrier, since a spin never parks and so keeps its carrier.
 */
public final class CpuWork {

    public static final CpuWork NONE = new CpuWork(0);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean THREAD_CPU_CLOCK = THREADS.isCurrentThreadCpuTimeSupported();
    /** Steps of arithmetic between two reads of the clock: a few hundred ns, so a spin ends near its mark. */
    private static final int STEPS_PER_READ = 256;

    /** Where each spin's result goes, so that the JIT cannot drop the loop as dead code. */
    @SuppressWarnings("unused")
    private static volatile long sink;

    private final long nanos;

    private CpuWork(long nanos) {
        this.nanos = nanos;
    }

    /** {@code micros} of CPU time per {@link #run}; 0 is none. */
    public static CpuWork ofMicros(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("CPU work must be >= 0 us, got " + micros);
        }
        return micros == 0 ? NONE : new CpuWork(Math.multiplyExact(micros, 1000L));
    }

    public long micros() {
        return nanos / 1000;
    }

    /** Spends the work on this thread: at least that much of its CPU time (or wall time on a virtual thread). */
    public void run() {
        if (nanos == 0) {
            return;
        }
        long cpuStart = THREAD_CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : -1;
        boolean onCpuClock = cpuStart >= 0;
        long start = onCpuClock ? cpuStart : System.nanoTime();
        long x = start | 1;
        long now;
        do {
            for (int i = 0; i < STEPS_PER_READ; i++) { // xorshift: each step needs the last, none can be skipped
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            now = onCpuClock ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
        } while (now - start < nanos);
        sink = x;
    }

    @Override
    public String toString() {
        return micros() + " us";
    }
}
