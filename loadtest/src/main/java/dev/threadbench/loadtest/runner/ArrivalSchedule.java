package dev.threadbench.loadtest.runner;

/**
 * When each request of an open-model load is meant to be sent: the k-th at
 * {@code start + (offset + k x stride) / rate}, computed from k rather than by adding intervals, so a long run does not
 * drift. A share of a total rate: with {@code stride} groups each taking its own {@code offset}, the groups' requests
 * interleave into one even schedule.
 *
 * <p>Pure: the caller passes the time ({@code now}, System.nanoTime() in the runner, any number in tests), so
 * nothing here reads a clock or sleeps. No burst beyond the schedule: request k is never due before its intended
 * time. When the sender falls behind (no free connection, a busy event loop), the requests already due stay due
 * and are all handed out as soon as it asks again; they are sent late, not skipped, as wrk2 does, and their latency
 * still counts from their intended time, so the delay shows in the percentiles.
 */
final class ArrivalSchedule {

    private final long startNanos;
    private final double nanosPerRequest;
    private final int offset;
    private final int stride;
    private final long endNanos;
    private long next;

    /**
     * @param ratePerSecond the total rate, over all the strides
     * @param endNanos      no request is intended at or after it
     */
    ArrivalSchedule(long startNanos, double ratePerSecond, int offset, int stride, long endNanos) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond) || offset < 0 || stride < 1 || offset >= stride) {
            throw new IllegalArgumentException("rate must be > 0 and 0 <= offset < stride");
        }
        this.startNanos = startNanos;
        this.nanosPerRequest = 1e9 / ratePerSecond;
        this.offset = offset;
        this.stride = stride;
        this.endNanos = endNanos;
    }

    /** The intended send time of this schedule's k-th request. */
    long intendedNanos(long k) {
        return startNanos + Math.round((offset + (double) k * stride) * nanosPerRequest);
    }

    /** The intended time of the next request not yet taken. */
    long peek() {
        return intendedNanos(next);
    }

    /** Whether the next request's time has come ({@code now} at or after it) and it is inside the schedule. */
    boolean due(long now) {
        long intended = peek();
        return intended <= now && intended < endNanos;
    }

    /** Takes the next request: its intended time. */
    long take() {
        return intendedNanos(next++);
    }

    /** No request is left: the next would be at or after the end. */
    boolean finished() {
        return peek() >= endNanos;
    }
}
