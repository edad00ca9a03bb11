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
 * @param clientCpuSeconds  CPU time this JVM used during the measured window
 * @param eventLoops        distinct event loop threads the slots ran on
 * @param transport         epoll (native) or nio
 */
public record LoadResult(long requests, long successes, Map<FailureCause, Long> failures, double durationSeconds,
                         Histogram latencyMicros, long sent, long answered, long connectionsOpened,
                         double clientCpuSeconds, int eventLoops, String transport, String firstOtherFailure) {

    public long failed() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    public double requestsPerSecond() {
        return durationSeconds > 0 ? requests / durationSeconds : 0;
    }
}
