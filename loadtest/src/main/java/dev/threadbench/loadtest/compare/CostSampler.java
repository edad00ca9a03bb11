package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.ThreadClassCost;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The server's cost over a measured window, as it reports it itself: its /stats "process" figures read at
 * the window's edges, and every 500 ms in between for the peaks (threads, RSS). All reads happen on this
 * sampler's own thread, so the load generator's timer never waits for /stats; the servers do not count
 * /stats, and two reads a second cost them nothing measurable. From {@link #begin} (before the load starts) to
 * {@link #cost} (after its last answer) the same 500 ms reads make the server's side of the run's timeline: its CPU
 * share, live threads and GC pauses over time, warm-up and drain included.
 */
final class CostSampler implements AutoCloseable {

    static final long INTERVAL_MS = 500;

    private final Target server;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "cost-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final CompletableFuture<Window> window = new CompletableFuture<>();
    private volatile boolean stopped;
    // touched on the sampler's thread only
    private ProcessFigures first;
    private long firstNanos;
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

    CostSampler(Target server) {
        this.server = server;
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
            int samples) {}

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
        timer.execute(() -> {
            long asked = System.nanoTime();
            first = readWithThreadClasses();
            firstNanos = (asked + System.nanoTime()) / 2;
            reads.add(new Read(firstNanos, first));
            sample(first);
            inWindow = true;
        });
        schedule(INTERVAL_MS);
    }

    void stop() {
        stopped = true;
        timer.execute(() -> {
            inWindow = false;
            long asked = System.nanoTime();
            ProcessFigures last = readWithThreadClasses();
            long lastNanos = (asked + System.nanoTime()) / 2;
            reads.add(new Read(lastNanos, last));
            sample(last);
            window.complete(
                    first == null || last == null
                            ? null
                            : new Window(
                                    first, last, (lastNanos - firstNanos) / 1e9, peakThreads, peakRssBytes, samples));
        });
    }

    /** A read for the timeline, stamped halfway through its request. */
    private ProcessFigures timedRead() {
        long asked = System.nanoTime();
        ProcessFigures figures = read();
        reads.add(new Read((asked + System.nanoTime()) / 2, figures));
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
                Long cpu = delta(previous.figures().cpuMs(), read.figures().cpuMs());
                share = cpu == null || serverCpus <= 0 ? null : RunAnalysis.round(cpu / elapsedMs / serverCpus, 3);
                Long gc = delta(previous.figures().gcPauseMs(), read.figures().gcPauseMs());
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
     * The server's JIT compile time per second over the last {@code seconds} of its 500 ms reads (the newest read
     * against the newest one at least that much older); null before there are such reads, or when the server gives no
     * JIT figure.
     */
    Double recentJitMsPerSecond(double seconds) {
        List<long[]> jit;
        synchronized (reads) {
            jit = reads.stream()
                    .filter(r -> r.figures() != null && r.figures().jitMs() != null)
                    .map(r -> new long[] {r.nanos(), r.figures().jitMs()})
                    .toList();
        }
        return jitMsPerSecond(jit, seconds);
    }

    /** Over {@code (nanoTime, jitMs)} reads in any order: see {@link #recentJitMsPerSecond}. */
    static Double jitMsPerSecond(List<long[]> jit, double seconds) {
        List<long[]> sorted =
                jit.stream().sorted(Comparator.comparingLong(r -> r[0])).toList();
        if (sorted.isEmpty()) {
            return null;
        }
        long[] last = sorted.getLast();
        long span = (long) (seconds * 1e9);
        for (int i = sorted.size() - 2; i >= 0; i--) {
            long elapsed = last[0] - sorted.get(i)[0];
            if (elapsed >= span - INTERVAL_MS * 1_000_000 / 5) { // a read a little late still counts as 2 s apart
                return (last[1] - sorted.get(i)[1]) * 1e9 / elapsed;
            }
        }
        return null;
    }

    @Override
    public void close() {
        timer.shutdownNow();
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
            return w == null ? null : cost(w, requestsPerSecond * w.seconds());
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            timer.shutdownNow();
        }
    }

    private ProcessFigures read() {
        try {
            return server.stats().process();
        } catch (Target.Failure e) {
            return null;
        }
    }

    /** At the window's edges only: the bill by thread class costs the server three /proc files per thread. */
    private ProcessFigures readWithThreadClasses() {
        try {
            return server.statsWithThreadClasses().process();
        } catch (Target.Failure e) {
            return null;
        }
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

    /**
     * A peak since the process started that rose during the window is the window's own, and exact; otherwise
     * the window's peak is the highest sample (every 500 ms: a shorter spike may be missed).
     */
    static Long peak(Long peakAtStart, Long peakAtEnd, long sampled) {
        if (peakAtStart != null && peakAtEnd != null && peakAtEnd > peakAtStart) {
            return peakAtEnd;
        }
        return sampled > 0 ? sampled : null;
    }

    static ServerCost cost(Window w, double requests) {
        ProcessFigures a = w.first();
        ProcessFigures b = w.last();
        Long cpuMs = delta(a.cpuMs(), b.cpuMs());
        Long peakRss = peak(a.rssPeakBytes(), b.rssPeakBytes(), w.sampledPeakRssBytes());
        Long gcPause = delta(a.gcPauseMs(), b.gcPauseMs());
        Long jit = delta(a.jitMs(), b.jitMs());
        return new ServerCost(
                cpuMs == null ? null : RunAnalysis.round(cpuMs / 1000.0, 3),
                perRequest(cpuMs, 1000, requests),
                perRequest(delta(a.cpuUserMs(), b.cpuUserMs()), 1000, requests),
                perRequest(delta(a.cpuSystemMs(), b.cpuSystemMs()), 1000, requests),
                peak(a.threadsPeak(), b.threadsPeak(), w.sampledPeakThreads()),
                perRequest(delta(a.contextSwitches(), b.contextSwitches()), 1, requests),
                peakRss == null ? null : mb(peakRss),
                heapAfterGc(b),
                b.heapCommittedBytes() == null ? null : mb(b.heapCommittedBytes()),
                delta(a.gcCount(), b.gcCount()),
                gcPause == null || w.seconds() <= 0 ? null : RunAnalysis.round(gcPause / w.seconds(), 2),
                jit == null || w.seconds() <= 0 ? null : RunAnalysis.round(jit / w.seconds(), 2),
                w.samples(),
                threads(a.threadClasses(), b.threadClasses(), requests));
    }

    /**
     * Each thread class over the window: its figures at the end less those at the start, per request over
     * {@code requests}; live threads at the end. Null unless both edges have the bill. A class's threads that ended in
     * the window leave it (its difference can be negative) for {@code exited}, so the classes still add up to the
     * process's CPU.
     */
    static Map<String, ThreadClassCost> threads(
            Map<String, ProcessFigures.ClassFigures> start,
            Map<String, ProcessFigures.ClassFigures> end,
            double requests) {
        if (start == null || end == null) {
            return null;
        }
        Map<String, ThreadClassCost> bill = new LinkedHashMap<>();
        end.forEach((name, b) -> {
            ProcessFigures.ClassFigures a = start.get(name);
            Double cpu = delta(a == null ? null : a.cpuMs(), b.cpuMs());
            Double wait = delta(a == null ? null : a.runQueueWaitMs(), b.runQueueWaitMs());
            Long voluntary = a == null ? null : delta(a.voluntaryContextSwitches(), b.voluntaryContextSwitches());
            Long involuntary = a == null ? null : delta(a.involuntaryContextSwitches(), b.involuntaryContextSwitches());
            bill.put(
                    name,
                    new ThreadClassCost(
                            round3(cpu),
                            round3(delta(a == null ? null : a.userMs(), b.userMs())),
                            round3(delta(a == null ? null : a.systemMs(), b.systemMs())),
                            round3(wait),
                            voluntary,
                            involuntary,
                            b.threads(),
                            perRequest(cpu, requests),
                            perRequest(wait, requests)));
        });
        return bill;
    }

    private static Double delta(Double start, Double end) {
        return start == null || end == null ? null : end - start;
    }

    private static Double round3(Double value) {
        return value == null ? null : RunAnalysis.round(value, 3);
    }

    /** ms over the window, in us per request. */
    private static Double perRequest(Double ms, double requests) {
        return ms == null || requests <= 0 ? null : RunAnalysis.round(ms * 1000 / requests, 2);
    }

    /** Null before the first collection, when there is no "after GC" yet (the JDK then reports 0). */
    private static Double heapAfterGc(ProcessFigures p) {
        return p.heapAfterGcBytes() == null || p.gcCount() == null || p.gcCount() == 0
                ? null
                : mb(p.heapAfterGcBytes());
    }

    private static Long delta(Long start, Long end) {
        return start == null || end == null ? null : end - start;
    }

    private static Double perRequest(Long amount, double scale, double requests) {
        return amount == null || requests <= 0 ? null : RunAnalysis.round(amount * scale / requests, 2);
    }

    private static double mb(long bytes) {
        return RunAnalysis.round(bytes / 1048576.0, 1);
    }
}
