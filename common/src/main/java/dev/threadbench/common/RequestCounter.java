package dev.threadbench.common;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides which requests are delayed: exactly every Nth request counted by this process, under any
 * concurrency, because the decision is taken from the one atomic increment that numbers the request.
 */
public final class RequestCounter {

    private final AtomicLong requests = new AtomicLong();
    private final int delayEvery;

    /** @param delayEvery delay every Nth request; 0 delays none */
    public RequestCounter(int delayEvery) {
        if (delayEvery < 0) {
            throw new IllegalArgumentException("delayEvery must be >= 0: " + delayEvery);
        }
        this.delayEvery = delayEvery;
    }

    /** Counts one request; true when it is one to delay. */
    public boolean countAndCheckDelayed() {
        long n = requests.incrementAndGet();
        return delayEvery > 0 && n % delayEvery == 0;
    }

    public long requests() {
        return requests.get();
    }

    /** How many of the first {@code requests} requests were delayed: derived, never counted apart. */
    public long delayedAmong(long requests) {
        return delayEvery == 0 ? 0 : requests / delayEvery;
    }
}
