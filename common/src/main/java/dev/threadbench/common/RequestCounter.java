package dev.threadbench.common;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The delay rule: counts the requests to {@code /} and answers, for each, whether it is served at once
 * ({@link Pace#FAST}) or after the delay ({@link Pace#DELAYED}). Exactly every Nth request is delayed,
 * under any concurrency, because the answer comes from the one atomic increment that numbers the request.
 */
public final class RequestCounter {

    /** How one request to {@code /} is answered. */
    public enum Pace {
        FAST,
        DELAYED
    }

    private final AtomicLong requests = new AtomicLong();
    private final int delayEvery;

    /** @param delayEvery delay every Nth request; 0 delays none */
    public RequestCounter(int delayEvery) {
        if (delayEvery < 0) {
            throw new IllegalArgumentException("delayEvery must be >= 0: " + delayEvery);
        }
        this.delayEvery = delayEvery;
    }

    /** Counts one request: DELAYED when it is an Nth one, else FAST. */
    public Pace next() {
        long n = requests.incrementAndGet();
        return delayEvery > 0 && n % delayEvery == 0 ? Pace.DELAYED : Pace.FAST;
    }

    public long requests() {
        return requests.get();
    }

    /** How many of the first {@code requests} requests were delayed: derived, never counted apart. */
    public long delayedAmong(long requests) {
        return delayEvery == 0 ? 0 : requests / delayEvery;
    }
}
