package dev.threadbench.loadtest.model;

import java.util.List;
import java.util.Map;

/**
 * The server's cost over a run's measured window, from the {@code "process"} figures of its own /stats, read at the
 * window's edges and sampled every 500 ms in between (the same for servers compare started and --targets). Per
 * request: over the requests the client completed in the window. {@code peakThreads} and {@code peakRssMb}: the
 * highest in the window; {@code heapAfterGcMb}: the heap left after the last collection, read at the window's end
 * (live data, not what the heap may grow to); {@code jitMsPerSecond}: JIT compilation per second of the window, CPU
 * the server spent on itself rather than on requests; figures the server cannot give (RSS and context switches off
 * Linux) are null. {@code threads}: the window's CPU bill by thread class (io, worker, carrier, gc, jit, other,
 * exited), read at its edges only; null from servers that give none (off Linux, older jars) and in older files.
 */
public record ServerCost(
        Double cpuSeconds,
        Double cpuMicrosPerRequest,
        Double cpuUserMicrosPerRequest,
        Double cpuSystemMicrosPerRequest,
        Long peakThreads,
        Double contextSwitchesPerRequest,
        Double peakRssMb,
        Double heapAfterGcMb,
        Double heapCommittedMb,
        Long gcCount,
        Double gcPauseMsPerSecond,
        Double jitMsPerSecond,
        int samples,
        Map<String, ThreadClassCost> threads) {

    /** The request CPU: the io, worker and carrier classes' CPU per request; null without the bill. */
    public Double requestCpuMicrosPerRequest() {
        return ThreadClassCost.sum(threads, ThreadClassCost.REQUEST_CLASSES, ThreadClassCost::cpuMicrosPerRequest);
    }

    /** The request threads' (io, worker, carrier) run-queue wait per request; null without the bill. */
    public Double requestRunQueueWaitMicrosPerRequest() {
        return ThreadClassCost.sum(
                threads, ThreadClassCost.REQUEST_CLASSES, ThreadClassCost::runQueueWaitMicrosPerRequest);
    }

    /** A class's share of all the classes' CPU in the window (the JIT's, the GC's); null without the bill. */
    public Double classShare(String threadClass) {
        Double all = ThreadClassCost.sum(
                threads, threads == null ? List.of() : List.copyOf(threads.keySet()), ThreadClassCost::cpuMs);
        ThreadClassCost c = threads == null ? null : threads.get(threadClass);
        return all == null || all <= 0 || c == null || c.cpuMs() == null ? null : c.cpuMs() / all;
    }

    /**
     * The share of the server's CPU at which the JIT's compiling is flagged: its CPU per request then counts the
     * compiler.
     */
    public static final double COMPILING_SHARE = 0.1;

    /**
     * The JIT's share of the server's CPU in the window: its compiler threads' CPU time from the bill by thread class
     * when there is one; else its compile time over the server's CPU at the window's {@code requestsPerSecond}, which
     * overstates it (compile time is elapsed time in the compiler threads, waits for a CPU included: 1.4-4 x their CPU
     * on a busy core, and it can pass 1). Null when neither is known.
     */
    public Double jitShare(double requestsPerSecond) {
        Double measured = classShare("jit");
        if (measured != null) {
            return measured;
        }
        if (jitMsPerSecond == null || cpuMicrosPerRequest == null) {
            return null;
        }
        double serverMsPerSecond = cpuMicrosPerRequest * requestsPerSecond / 1000;
        return serverMsPerSecond > 0 ? jitMsPerSecond / serverMsPerSecond : null;
    }

    /** Whether the JIT compiled for {@link #COMPILING_SHARE} or more of the server's CPU in the window. */
    public boolean compiling(double requestsPerSecond) {
        Double share = jitShare(requestsPerSecond);
        return share != null && share >= COMPILING_SHARE;
    }
}
