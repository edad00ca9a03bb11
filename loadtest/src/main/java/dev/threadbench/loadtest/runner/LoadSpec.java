package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.plan.Plan;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What to run: the plan's steps in order per plan run, {@code concurrency} slots each holding one
 * keep-alive connection and one request at a time, slot i starting at i x rampup / concurrency.
 *
 * @param rate            null: closed loop (each slot sends its next plan run when the last is answered); else the open
 *                        model: plan runs start at this many per second in all, each on a free slot, whatever the
 *                        answers
 * @param transport       the event loops' I/O: epoll, io_uring or nio (one that cannot start falls back, see
 *                        {@link GeneratorTransport})
 * @param sourceAddresses local addresses the connections bind to, round-robin over the slots; empty: the system's
 *                        choice (see {@link SourceAddresses#forLoad} for the choice made on loopback)
 * @param pinnedHosts     host names of the steps' URLs already resolved: the runner connects to these addresses instead
 *                        of resolving the names again (an agent checked them against its allow-list); empty: resolve
 */
public record LoadSpec(
        List<Plan.Step> steps,
        int concurrency,
        Duration rampup,
        Duration timeout,
        LoadShape shape,
        int eventLoops,
        Double rate,
        GeneratorTransport transport,
        List<InetAddress> sourceAddresses,
        Map<String, InetAddress> pinnedHosts) {

    public LoadSpec {
        steps = List.copyOf(steps);
        sourceAddresses = List.copyOf(sourceAddresses);
        pinnedHosts = Map.copyOf(pinnedHosts);
        if (concurrency < 1 || eventLoops < 1 || steps.isEmpty()) {
            throw new IllegalArgumentException("concurrency, event loops and steps must be at least 1");
        }
        if (rate != null && !(rate > 0 && rate < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("rate must be a positive number of requests/s, got " + rate);
        }
    }

    /** On the default transport, from the system's choice of local address. */
    public LoadSpec(
            List<Plan.Step> steps,
            int concurrency,
            Duration rampup,
            Duration timeout,
            LoadShape shape,
            int eventLoops,
            Double rate) {
        this(
                steps,
                concurrency,
                rampup,
                timeout,
                shape,
                eventLoops,
                rate,
                GeneratorTransport.DEFAULT,
                List.of(),
                Map.of());
    }

    /** The same load on {@code newTransport}, its connections bound to {@code sources} in turn. */
    public LoadSpec with(GeneratorTransport newTransport, List<InetAddress> sources) {
        return new LoadSpec(
                steps, concurrency, rampup, timeout, shape, eventLoops, rate, newTransport, sources, pinnedHosts);
    }

    /** The same load, connecting to {@code addresses} (host name to address) instead of resolving those names. */
    public LoadSpec pinned(Map<String, InetAddress> addresses) {
        return new LoadSpec(
                steps, concurrency, rampup, timeout, shape, eventLoops, rate, transport, sourceAddresses, addresses);
    }

    /** A closed-loop load. */
    public LoadSpec(
            List<Plan.Step> steps,
            int concurrency,
            Duration rampup,
            Duration timeout,
            LoadShape shape,
            int eventLoops) {
        this(steps, concurrency, rampup, timeout, shape, eventLoops, null);
    }

    public boolean open() {
        return rate != null;
    }

    /**
     * The shape the runner keeps: at a fixed rate, N measured plan runs take N / rate seconds, so a counted
     * load becomes a timed one (about N plan runs are intended inside it).
     */
    LoadShape runShape() {
        if (rate != null && shape instanceof LoadShape.Counted counted) {
            return new LoadShape.Timed(
                    counted.warmup(), Duration.ofNanos(Math.round(counted.iterations() * 1e9 / rate)));
        }
        return shape;
    }

    /** The event loops worth using: no more than the cores, no more than the slots. */
    public static int defaultEventLoops(int concurrency) {
        return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), concurrency));
    }
}
