package dev.threadbench.loadtest.runner;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The measured part of a load: counts, failures by cause and the latency histogram (microseconds, every
 * measured request, failed or not, as drill counts them), plus whole-run totals for reconciliation.
 *
 * @param sent          requests sent in the whole run (ramp-up, warm-up, measured window and drain)
 * @param answered      of those, how many got a status line back: what the server should have counted
 * @param connectionsOpened TCP connections the client opened (one per slot unless some broke)
 * @param generatorCpuSeconds  CPU time this JVM used during the measured window
 * @param eventLoops        distinct event loop threads the slots ran on
 * @param transport         epoll (native) or nio
 * @param open              what the open model did, null for a closed-loop load
 * @param seconds           the load second by second since its start; null when not kept
 */
public record LoadResult(
        long requests,
        long successes,
        Map<FailureCause, Long> failures,
        double durationSeconds,
        Histogram latencyMicros,
        long sent,
        long answered,
        long connectionsOpened,
        double generatorCpuSeconds,
        int eventLoops,
        String transport,
        String firstOtherFailure,
        Open open,
        SecondSeries seconds) {

    /**
     * An open-model load: the rate asked for, and how well the client kept to it.
     *
     * @param sentInWindow      plan runs sent during the measured window: the achieved rate
     * @param completedInWindow requests answered (or failed) during it: the server's throughput
     * @param late              measured plan runs sent more than {@link #LATE_MILLIS} ms after their intended time
     * @param unsent            measured plan runs never sent: no connection came free within the timeout (failed as
     *                          timeouts)
     * @param maxLateMs         the latest a measured plan run was sent after its intended time
     */
    public record Open(
            double targetRate,
            int connections,
            long sentInWindow,
            long completedInWindow,
            long late,
            long unsent,
            double maxLateMs) {

        public static final long LATE_MILLIS = 10;
    }

    public long failed() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    public double requestsPerSecond() {
        long counted = open == null ? requests : open.completedInWindow();
        return durationSeconds > 0 ? counted / durationSeconds : 0;
    }

    /** Open model: the plan runs sent per second during the measured window. */
    public double achievedRate() {
        return open == null || durationSeconds <= 0 ? 0 : open.sentInWindow() / durationSeconds;
    }
}
