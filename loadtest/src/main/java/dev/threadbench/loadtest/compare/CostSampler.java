package dev.threadbench.loadtest.compare;

import dev.threadbench.common.ThreadSnapshot;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.server.ProcessFigures;
import dev.threadbench.loadtest.server.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The server's cost over a measured window, as it reports it itself: its /stats "process" figures read at
 * the window's edges, and every 500 ms in between for the peaks (threads, RSS). All reads happen on this
 * sampler's own thread, so the load generator's timer never waits for /stats; the servers do not count
 * /stats, and two reads a second cost them nothing measurable. From {@link #begin} (before the load starts) to
 * {@link #cost} (after its last answer) the same 500 ms reads make the server's side of the run's timeline: its CPU
 * share, live threads and GC pauses over time, warm-up and drain included.
 *
 * <p>The bill by thread class: for a server compare started, read here from its /proc at the window's edges,
 * thread by thread ({@link ThreadSnapshot}), so that no reading runs on the server's threads or its cores; for
 * one it reached with --targets, its /stats?threads (which it serves on a thread of the {@code other} class).
 */
final class CostSampler implements AutoCloseable {

    static final long INTERVAL_MS = 500;

    private final Target server;
    private final Consumer<ProcessFigures> onRead;
    /** The server's process on this machine when compare started it: its threads are read from here. */
    private final OptionalLong pid;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "cost-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final CompletableFuture<Window> window = new CompletableFuture<>();
    /**
     * The server's threads are read at the window's edges on a thread of their own, not queued behind a /stats read
     * that an overloaded server answers late: the edges stay the window's.
     */
    private final ExecutorService edgeReader = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "cost-edges");
        thread.setDaemon(true);
        return thread;
    });

    private final CompletableFuture<Edge> firstThreads = new CompletableFuture<>();
    private final CompletableFuture<Edge> lastThreads = new CompletableFuture<>();
    private volatile boolean stopped;
    // touched on the sampler's thread only
    private ProcessFigures first;
    private long firstNanos;
    /** The server's kind as its /stats names it ("undertow", "vertx"), for its threads' classes. */
    private volatile String kind;

    private long peakThreads;
    private long peakRssBytes;
    private int samples;
    private boolean sampling;
    private volatile boolean inWindow;
    /** When the measured window started, on this JVM's clock: where the timeline meets the generator's. */
    private volatile long measureStartedNanos;
    /** Every read from {@link #begin} on: (when, its figures); appended on the sampler's thread. */
    private final List<Read> reads = Collections.synchronizedList(new ArrayList<>());

    private record Read(long nanos, ProcessFigures figures) {}

    /** The server's threads at one edge of the window, stamped halfway through the reading. */
    record Edge(long nanos, ThreadSnapshot threads) {}

    /** @param onRead each 500 ms read's figures as well (compare's live page), on this sampler's thread */
    CostSampler(Target server, Consumer<ProcessFigures> onRead) {
        this.server = server;
        this.pid = server.pid();
        this.onRead = onRead;
    }

    /**
     * The figures at the window's start and end, the peaks sampled between, and the seconds between the two reads
     * (each taken halfway through its request: under load /stats may answer late, and the window is then the reads').
     */
    record Window(
            ProcessFigures first,
            ProcessFigures last,
            double seconds,
            long sampledPeakThreads,
            long sampledPeakRssBytes,
            int samples,
            Edge firstThreads,
            Edge lastThreads,
            String kind) {

        /** This window with the server's threads at its edges. */
        Window withThreads(Edge first, Edge last) {
            return new Window(
                    this.first,
                    this.last,
                    seconds,
                    sampledPeakThreads,
                    sampledPeakRssBytes,
                    samples,
                    first,
                    last,
                    kind);
        }

        Window(
                ProcessFigures first,
                ProcessFigures last,
                double seconds,
                long sampledPeakThreads,
                long sampledPeakRssBytes,
                int samples) {
            this(first, last, seconds, sampledPeakThreads, sampledPeakRssBytes, samples, null, null, null);
        }
    }

    /** Reads every 500 ms from now (before the load starts), for the timeline; the window's own edges come later. */
    void begin() {
        schedule(0);
    }

    /** The reads every 500 ms, from {@link #begin} or, without it, from the window's start. */
    private synchronized void schedule(long initialDelayMs) {
        if (!sampling) {
            sampling = true;
            timer.scheduleAtFixedRate(
                    () -> {
                        ProcessFigures figures = timedRead();
                        if (inWindow) {
                            sample(figures);
                        }
                    },
                    initialDelayMs,
                    INTERVAL_MS,
                    TimeUnit.MILLISECONDS);
        }
    }

    void start() {
        measureStartedNanos = System.nanoTime();
        if (pid.isPresent()) {
            edgeReader.execute(() -> firstThreads.complete(threads()));
        }
        timer.execute(() -> {
            long asked = System.nanoTime();
            first = edgeRead();
            firstNanos = (asked + System.nanoTime()) / 2;
            reads.add(new Read(firstNanos, first));
            sample(first);
            inWindow = true;
        });
        schedule(INTERVAL_MS);
    }

    void stop() {
        stopped = true;
        if (pid.isPresent()) {
            edgeReader.execute(() -> lastThreads.complete(threads()));
        }
        timer.execute(() -> {
            inWindow = false;
            long asked = System.nanoTime();
            ProcessFigures last = edgeRead();
            long lastNanos = (asked + System.nanoTime()) / 2;
            reads.add(new Read(lastNanos, last));
            sample(last);
            window.complete(
                    first == null || last == null
                            ? null
                            : new Window(
                                    first,
                                    last,
                                    (lastNanos - firstNanos) / 1e9,
                                    peakThreads,
                                    peakRssBytes,
                                    samples,
                                    null,
                                    null,
                                    kind));
        });
    }

    /** A read for the timeline, stamped halfway through its request. */
    private ProcessFigures timedRead() {
        long asked = System.nanoTime();
        ProcessFigures figures = read();
        reads.add(new Read((asked + System.nanoTime()) / 2, figures));
        onRead.accept(figures);
        return figures;
    }

    /**
     * The server's side of the timeline, on the generator's clock: seconds since the load started, the measured window
     * starting at {@code measureStartSecond} there and at {@link #start} here. Each sample's CPU share is over the time
     * since the one before, of {@code serverCpus}; null when the server reports no process figures or the window never
     * started.
     */
    List<Results.ServerSample> timeline(double measureStartSecond, double serverCpus) {
        List<Read> copy;
        synchronized (reads) {
            copy = reads.stream()
                    .filter(r -> r.figures() != null)
                    .sorted(Comparator.comparingLong(Read::nanos))
                    .toList();
        }
        if (copy.isEmpty() || measureStartedNanos == 0) {
            return null;
        }
        List<Results.ServerSample> samples = new ArrayList<>();
        Read previous = null;
        for (Read read : copy) {
            double second = RunAnalysis.round(measureStartSecond + (read.nanos() - measureStartedNanos) / 1e9, 3);
            Double share = null;
            Double gcPause = null;
            if (previous != null) {
                double elapsedMs = (read.nanos() - previous.nanos()) / 1e6;
                if (elapsedMs < 50) {
                    continue; // two reads at the same moment (a window's edge and a tick): the share would be noise
                }
                Long cpu = WindowCost.delta(
                        previous.figures().cpuMs(), read.figures().cpuMs());
                share = cpu == null || serverCpus <= 0 ? null : RunAnalysis.round(cpu / elapsedMs / serverCpus, 3);
                Long gc = WindowCost.delta(
                        previous.figures().gcPauseMs(), read.figures().gcPauseMs());
                gcPause = gc == null ? null : gc.doubleValue();
            }
            previous = read;
            if (second
                    >= 0) { // a read before the load started (while its generator set up) is only the next one's base
                samples.add(
                        new Results.ServerSample(second, share, read.figures().threads(), gcPause));
            }
        }
        return samples;
    }

    /**
     * The server's JIT compile time over its CPU time in the last {@code seconds} of its 500 ms reads (the newest read
     * against the newest one at least that much older), for a server whose threads compare cannot read; null before
     * there are such reads, or when the server gives no JIT or CPU figure (the warm-up then fails closed).
     */
    Double recentJitShare(double seconds) {
        List<long[]> jit;
        synchronized (reads) {
            jit = reads.stream()
                    .filter(r -> r.figures() != null
                            && r.figures().jitMs() != null
                            && r.figures().cpuMs() != null)
                    .map(r -> new long[] {
                        r.nanos(), r.figures().jitMs(), r.figures().cpuMs()
                    })
                    .toList();
        }
        return jitShare(jit, seconds);
    }

    /** Over {@code (nanoTime, jitMs, cpuMs)} reads in any order: see {@link #recentJitShare}. */
    static Double jitShare(List<long[]> reads, double seconds) {
        List<long[]> sorted =
                reads.stream().sorted(Comparator.comparingLong(r -> r[0])).toList();
        if (sorted.isEmpty()) {
            return null;
        }
        long[] last = sorted.getLast();
        long span = (long) (seconds * 1e9);
        for (int i = sorted.size() - 2; i >= 0; i--) {
            long elapsed = last[0] - sorted.get(i)[0];
            if (elapsed >= span - INTERVAL_MS * 1_000_000 / 5) { // a read a little late still counts as 2 s apart
                long cpu = last[2] - sorted.get(i)[2];
                return cpu <= 0 ? null : Math.min(1.0, (last[1] - sorted.get(i)[1]) / (double) cpu);
            }
        }
        return null;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        edgeReader.shutdownNow();
    }

    /**
     * The run's cost, per request at the client's measured {@code requestsPerSecond} over the reads' own window;
     * null when the server reports no process figures, or never answered.
     */
    ServerCost cost(double requestsPerSecond) {
        if (!stopped) {
            timer.shutdownNow();
            return null;
        }
        try {
            Window w = window.get(30, TimeUnit.SECONDS);
            if (w != null && pid.isPresent()) {
                w = w.withThreads(firstThreads.get(30, TimeUnit.SECONDS), lastThreads.get(30, TimeUnit.SECONDS));
            }
            return w == null ? null : WindowCost.of(w, requestsPerSecond);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            close();
        }
    }

    private ProcessFigures read() {
        try {
            Target.Stats stats = server.stats();
            kind = stats.server();
            return stats.process();
        } catch (Target.Failure e) {
            return null;
        }
    }

    /**
     * At the window's edges: the server's figures; from /stats?threads with the bill by thread class when compare
     * cannot read the server's threads itself (three /proc files per thread, which the server then reads).
     */
    private ProcessFigures edgeRead() {
        if (pid.isPresent()) {
            return read();
        }
        try {
            return server.statsWithThreadClasses().process();
        } catch (Target.Failure e) {
            return null;
        }
    }

    /** The server's threads now, read from its /proc on this side; null when compare did not start it. */
    private Edge threads() {
        if (pid.isEmpty()) {
            return null;
        }
        long asked = System.nanoTime();
        ThreadSnapshot snapshot = ThreadSnapshot.ofProcess(pid.getAsLong());
        return snapshot == null ? null : new Edge((asked + System.nanoTime()) / 2, snapshot);
    }

    private void sample(ProcessFigures figures) {
        if (figures == null) {
            return;
        }
        samples++;
        if (figures.threads() != null) {
            peakThreads = Math.max(peakThreads, figures.threads());
        }
        if (figures.rssBytes() != null) {
            peakRssBytes = Math.max(peakRssBytes, figures.rssBytes());
        }
    }
}
