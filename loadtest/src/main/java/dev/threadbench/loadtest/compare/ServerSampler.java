package dev.threadbench.loadtest.compare;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The server's CPU time and peak RSS over the measured window: CPU from /proc/PID/stat at the window's
 * edges, peak RSS from VmHWM (reset at the start), with VmRSS sampled every 200 ms as a floor in case
 * the reset is not allowed.
 */
final class ServerSampler {

    private final long pid;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "server-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private volatile double cpuAtStart = Double.NaN;
    private volatile double cpuAtEnd = Double.NaN;
    private volatile long sampledPeakKb;
    private volatile long peakKb = -1;
    private volatile boolean peakReset;

    ServerSampler(long pid) {
        this.pid = pid;
    }

    void start() {
        peakReset = ProcFs.resetPeakRss(pid);
        cpuAtStart = ProcFs.cpuSeconds(pid).orElse(Double.NaN);
        timer.scheduleAtFixedRate(this::sample, 0, 200, TimeUnit.MILLISECONDS);
    }

    void stop() {
        cpuAtEnd = ProcFs.cpuSeconds(pid).orElse(Double.NaN);
        sample();
        peakKb = Math.max(sampledPeakKb, ProcFs.peakRssKb(pid).orElse(0));
        timer.shutdownNow();
    }

    private void sample() {
        long rss = ProcFs.rssKb(pid).orElse(0);
        if (rss > sampledPeakKb) {
            sampledPeakKb = rss;
        }
    }

    Double cpuSeconds() {
        double cpu = cpuAtEnd - cpuAtStart;
        return Double.isNaN(cpu) ? null : RunAnalysis.round(cpu, 2);
    }

    Double peakRssMb() {
        return peakKb < 0 ? null : RunAnalysis.round(peakKb / 1024.0, 1);
    }

    boolean peakWasReset() {
        return peakReset;
    }
}
