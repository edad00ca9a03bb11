package dev.threadbench.common;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code GET /stats} reports: requests to {@code /}, how many were delayed, and how many are
 * being answered now. Only requests to {@code /} are counted. A request is in flight from its admission
 * until its answer has been written to the connection (or the write failed), so a drain that waits for
 * none in flight loses no answer; a client may read its answer a moment before the server's IO thread
 * has counted it done, so one that asks {@code /stats} over another connection right away can still
 * see it in flight.
 */
public final class ServerStats {

    private final String server;
    private final Strategy strategy;
    private final RequestCounter counter;
    private final AtomicLong inFlight = new AtomicLong();

    public ServerStats(String server, Strategy strategy, int delayEvery) {
        this.server = server;
        this.strategy = strategy;
        this.counter = new RequestCounter(delayEvery);
    }

    /** Admits one request to {@code /}; true when it must be delayed. Pair with {@link #completed()}. */
    public boolean admit() {
        inFlight.incrementAndGet();
        return counter.countAndCheckDelayed();
    }

    /** The answer to an admitted request has been written to the connection, or its write failed. */
    public void completed() {
        inFlight.decrementAndGet();
    }

    public long requests() {
        return counter.requests();
    }

    public long delayed() {
        return counter.delayedAmong(counter.requests());
    }

    public long inFlight() {
        return inFlight.get();
    }

    public String toJson() {
        long requests = counter.requests();
        return "{\"server\":\"" + server + "\",\"strategy\":\"" + strategy.id()
                + "\",\"requests\":" + requests + ",\"delayed\":" + counter.delayedAmong(requests)
                + ",\"inFlight\":" + inFlight() + "}";
    }
}
