package dev.threadbench.common;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code GET /stats} reports: requests to {@code /} and how many of them were delayed (both read
 * from the {@link RequestCounter}), and how many are being answered now. A request is in flight from
 * {@link #started()} until its answer has been written to the connection (or the write failed), so a
 * drain that waits for none in flight loses no answer; a client may read its answer a moment before the
 * server's IO thread has counted it done, so one that asks {@code /stats} over another connection right
 * away can still see it in flight. Beside these, what the process has cost so far ({@link ProcessCost}).
 */
public final class ServerStats {

    private final String server;
    private final Strategy strategy;
    private final RequestCounter counter;
    private final AtomicLong inFlight = new AtomicLong();
    private ThreadClasses classes;
    private ExecutorService threadReader;

    /**
     * The name of the one thread that reads the bill by thread class for {@code /stats?threads}: a name no table puts
     * in a request class, so the reading (three /proc files per thread, 38 ms at 1,000 threads) is billed to
     * {@code other}, never to the requests it measures.
     */
    public static final String THREAD_READER = "stats-reader";

    public ServerStats(String server, Strategy strategy, RequestCounter counter) {
        this.server = server;
        this.strategy = strategy;
        this.counter = counter;
    }

    /** A request to {@code /} is being answered. Pair with {@link #completed()}. */
    public void started() {
        inFlight.incrementAndGet();
    }

    /** The answer to a started request has been written to the connection, or its write failed. */
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
        return toJson(false);
    }

    /**
     * With {@code threadClasses} (GET /stats?threads), the process figures add the CPU bill by thread class
     * ({@link ThreadClasses}, by this server's prefix table): three procfs files per thread, so compare asks at a
     * measured window's edges only.
     */
    public String toJson(boolean threadClasses) {
        long requests = counter.requests();
        ThreadClasses classes = threadClasses ? threadClasses() : null;
        return "{\"server\":\"" + server + "\",\"strategy\":\"" + strategy.id()
                + "\",\"requests\":" + requests + ",\"delayed\":" + counter.delayedAmong(requests)
                + ",\"inFlight\":" + inFlight() + ",\"process\":"
                + ProcessCost.ofThisProcess().toJson(classes) + "}";
    }

    /**
     * GET /metrics: the same figures in Prometheus's text format ({@link PrometheusText}), the bill by thread class
     * included; serve it on {@link #threadReader()}, as /stats?threads.
     */
    public String toPrometheus() {
        long requests = counter.requests();
        ThreadClasses classes = threadClasses();
        return PrometheusText.render(
                server,
                strategy.id(),
                requests,
                counter.delayedAmong(requests),
                inFlight(),
                ProcessCost.ofThisProcess().figures(),
                classes == null ? null : classes.read());
    }

    /** Where both servers read {@code /stats?threads}: one daemon thread, {@link #THREAD_READER}, started once. */
    public synchronized Executor threadReader() {
        if (threadReader == null) {
            threadReader = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, THREAD_READER);
                thread.setDaemon(true);
                return thread;
            });
        }
        return threadReader;
    }

    private synchronized ThreadClasses threadClasses() {
        if (classes == null) {
            classes = ThreadClasses.ofThisProcess(ThreadClasses.table(server));
        }
        return classes;
    }
}
