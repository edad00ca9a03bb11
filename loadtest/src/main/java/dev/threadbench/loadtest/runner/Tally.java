package dev.threadbench.loadtest.runner;

import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Counts of one event loop's requests. Written only by that loop's thread (no locks, no sharing) and
 * read after the loop's slots have all finished; {@link #merge} adds the loops together.
 */
final class Tally {

    /** Microseconds up to an hour: no answer is too slow to record (drill 0.9's histogram panicked past ~4 s). */
    static final long HIGHEST_MICROS = 3_600_000_000L;

    final Histogram latencyMicros = newHistogram();
    /**
     * Every completed request by the second it completed in, measured or not: not merged, see {@link SecondSeries#of}.
     */
    final SecondBuckets seconds = new SecondBuckets();

    long measuredRequests;
    long measuredSuccesses;
    final long[] measuredFailures = new long[FailureCause.values().length];
    /** Whole run, warm-up and drain included: for reconciling with the server's own count. */
    long sent;

    long answered;
    long connectionsOpened;
    String firstOtherFailure;
    /** Open model only: see {@link LoadResult.Open}. */
    long sentInWindow;

    long completedInWindow;
    long late;
    long unsent;
    long maxLateNanos;

    static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_MICROS, 3);
    }

    void recordMeasured(long micros, FailureCause failure) {
        latencyMicros.recordValue(Math.max(1, Math.min(micros, HIGHEST_MICROS)));
        measuredRequests++;
        if (failure == null) {
            measuredSuccesses++;
        } else {
            measuredFailures[failure.ordinal()]++;
        }
    }

    void merge(Tally other) {
        latencyMicros.add(other.latencyMicros);
        measuredRequests += other.measuredRequests;
        measuredSuccesses += other.measuredSuccesses;
        for (int i = 0; i < measuredFailures.length; i++) {
            measuredFailures[i] += other.measuredFailures[i];
        }
        sent += other.sent;
        answered += other.answered;
        connectionsOpened += other.connectionsOpened;
        sentInWindow += other.sentInWindow;
        completedInWindow += other.completedInWindow;
        late += other.late;
        unsent += other.unsent;
        maxLateNanos = Math.max(maxLateNanos, other.maxLateNanos);
        if (firstOtherFailure == null) {
            firstOtherFailure = other.firstOtherFailure;
        }
    }

    Map<FailureCause, Long> failures() {
        Map<FailureCause, Long> byCause = new EnumMap<>(FailureCause.class);
        for (FailureCause cause : FailureCause.values()) {
            byCause.put(cause, measuredFailures[cause.ordinal()]);
        }
        return byCause;
    }
}
