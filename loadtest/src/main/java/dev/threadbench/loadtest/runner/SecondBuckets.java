package dev.threadbench.loadtest.runner;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One event loop's requests in 1 s buckets since the load started, every request it completed (ramp-up, warm-up,
 * measured window and drain alike): each second an HdrHistogram interval, kept compressed once the second is over.
 * Written only by the loop's thread. A request costs a division, a comparison and a histogram record, and allocates
 * nothing; a new second costs one compressed encoding (a few hundred bytes), so a long run holds little.
 */
final class SecondBuckets {

    /**
     * Two significant digits: each second's percentiles within 1 %, a twelfth of the size of the run's own histogram.
     */
    static final int DIGITS = 2;

    private static final long SECOND = 1_000_000_000L;

    private final Histogram current = newHistogram();
    private final ByteBuffer buffer = ByteBuffer.allocate(current.getNeededByteBufferCapacity());
    /** Index: the second since the load's start; null for a second without a completed request. */
    private final List<byte[]> seconds = new ArrayList<>();

    /** The last whole second, for a live view read from another thread once a second; null before the first. */
    private volatile Latest latest;

    private long[] failed = new long[128];
    private int currentSecond;
    private boolean finished;

    static Histogram newHistogram() {
        return new Histogram(1, Tally.HIGHEST_MICROS, DIGITS);
    }

    /**
     * A request completed {@code sinceStartNanos} after the load's start, after {@code micros}; {@code failure}: it
     * failed.
     */
    void record(long sinceStartNanos, long micros, boolean failure) {
        int second = (int) Math.min(Integer.MAX_VALUE - 1, Math.max(0, sinceStartNanos / SECOND));
        if (second > currentSecond) {
            roll(second);
        }
        current.recordValue(Math.max(1, Math.min(micros, Tally.HIGHEST_MICROS)));
        if (failure) {
            if (currentSecond >= failed.length) {
                failed = Arrays.copyOf(failed, Math.max(failed.length * 2, currentSecond + 1));
            }
            failed[currentSecond]++;
        }
    }

    /** The current second is over: kept compressed, the seconds up to {@code next} without requests as nulls. */
    private void roll(int next) {
        byte[] encoded = encodeCurrent();
        seconds.add(encoded);
        if (encoded != null) {
            latest = new Latest(currentSecond, encoded);
        }
        while (seconds.size() < next) {
            seconds.add(null);
        }
        currentSecond = next;
        current.reset();
    }

    private byte[] encodeCurrent() {
        if (current.getTotalCount() == 0) {
            return null;
        }
        buffer.clear();
        int length = current.encodeIntoCompressedByteBuffer(buffer);
        return Arrays.copyOf(buffer.array(), length);
    }

    /** A whole second since the load's start and its compressed histogram. */
    record Latest(int second, byte[] histogram) {}

    /** The newest whole second with a completed request; null before the first ends. Safe from any thread. */
    Latest latest() {
        return latest;
    }

    /** Each second's compressed histogram (null: none completed), once the loop's slots have all stopped. */
    List<byte[]> seconds() {
        if (!finished) {
            finished = true;
            seconds.add(encodeCurrent());
        }
        return seconds;
    }

    /** Failed requests per second, as long as {@link #seconds}. */
    long[] failed() {
        return Arrays.copyOf(failed, seconds().size());
    }
}
