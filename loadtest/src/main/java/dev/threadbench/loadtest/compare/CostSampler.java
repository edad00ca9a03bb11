package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.report.Results;
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
 * /stats, and two reads a second cost them nothing measurable.
 */
final class CostSampler {

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

    CostSampler(Target server) {
        this.server = server;
    }

    /**
     * The figures at the window's start and end, the peaks sampled between, and the seconds between the two reads
     * (each taken halfway through its request: under load /stats may answer late, and the window is then the reads').
     */
    record Window(ProcessFigures first, ProcessFigures last, double seconds, long sampledPeakThreads, long sampledPeakRssBytes,
                  int samples) {}

    void start() {
        timer.execute(() -> {
            long asked = System.nanoTime();
            first = read();
            firstNanos = (asked + System.nanoTime()) / 2;
            sample(first);
        });
        timer.scheduleAtFixedRate(() -> sample(read()), INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    void stop() {
        stopped = true;
        timer.execute(() -> {
            long asked = System.nanoTime();
            ProcessFigures last = read();
            long lastNanos = (asked + System.nanoTime()) / 2;
            sample(last);
            window.complete(first == null || last == null ? null
                    : new Window(first, last, (lastNanos - firstNanos) / 1e9, peakThreads, peakRssBytes, samples));
        });
        timer.shutdown();
    }

    /**
     * The run's cost, per request at the client's measured {@code requestsPerSecond} over the reads' own window;
     * null when the server reports no process figures, or never answered.
     */
    Results.ServerCost cost(double requestsPerSecond) {
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

    static Results.ServerCost cost(Window w, double requests) {
        ProcessFigures a = w.first();
        ProcessFigures b = w.last();
        Long cpuMs = delta(a.cpuMs(), b.cpuMs());
        Long peakRss = peak(a.rssPeakBytes(), b.rssPeakBytes(), w.sampledPeakRssBytes());
        Long gcPause = delta(a.gcPauseMs(), b.gcPauseMs());
        Long jit = delta(a.jitMs(), b.jitMs());
        return new Results.ServerCost(cpuMs == null ? null : RunAnalysis.round(cpuMs / 1000.0, 3),
                perRequest(cpuMs, 1000, requests), perRequest(delta(a.cpuUserMs(), b.cpuUserMs()), 1000, requests),
                perRequest(delta(a.cpuSystemMs(), b.cpuSystemMs()), 1000, requests),
                peak(a.threadsPeak(), b.threadsPeak(), w.sampledPeakThreads()),
                perRequest(delta(a.contextSwitches(), b.contextSwitches()), 1, requests),
                peakRss == null ? null : mb(peakRss), heapAfterGc(b),
                b.heapCommittedBytes() == null ? null : mb(b.heapCommittedBytes()), delta(a.gcCount(), b.gcCount()),
                gcPause == null || w.seconds() <= 0 ? null : RunAnalysis.round(gcPause / w.seconds(), 2),
                jit == null || w.seconds() <= 0 ? null : RunAnalysis.round(jit / w.seconds(), 2), w.samples());
    }

    /** Null before the first collection, when there is no "after GC" yet (the JDK then reports 0). */
    private static Double heapAfterGc(ProcessFigures p) {
        return p.heapAfterGcBytes() == null || p.gcCount() == null || p.gcCount() == 0 ? null : mb(p.heapAfterGcBytes());
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
