package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.engine.Engine.Timing;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A cluster run's measured window on compare's clock: the agents start together at {@code startNanos}, measure after
 * their ramp-up and warm-up, for the duration (or, counted, until the last one reports). Its edges sample the server.
 */
final class ClusterWindow implements AutoCloseable {

    private final LoadRunner.Phases phases;
    private final long measureStartNanos;
    private final Timing timing;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "cluster-window");
        thread.setDaemon(true);
        return thread;
    });
    private boolean started;
    private boolean ended;

    ClusterWindow(LoadRunner.Phases phases, long startNanos, Timing timing) {
        this.phases = phases;
        this.timing = timing;
        // as the runner's own window: a counted load without warm-up measures from its first request
        boolean countedFromStart = timing.durationSeconds() == null && timing.warmupSeconds() == 0;
        this.measureStartNanos = countedFromStart
                ? startNanos
                : startNanos + TimeUnit.SECONDS.toNanos(timing.rampupSeconds() + (long) timing.warmupSeconds());
        timer.schedule(this::start, measureStartNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (timing.durationSeconds() != null) {
            timer.schedule(
                    this::end,
                    measureStartNanos + TimeUnit.SECONDS.toNanos(timing.durationSeconds()) - System.nanoTime(),
                    TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void start() {
        started = true;
        phases.measureStarted();
    }

    private synchronized void end() {
        if (started && !ended) {
            ended = true;
            phases.measureEnded();
        }
    }

    /** How long after now the reports may take: the whole run, its drain, and a margin. */
    long reportsDueMillis() {
        if (timing.durationSeconds() == null) {
            return TimeUnit.DAYS.toMillis(1);
        }
        long untilEnd =
                TimeUnit.NANOSECONDS.toMillis(measureStartNanos - System.nanoTime()) + timing.durationSeconds() * 1000L;
        return Math.max(0, untilEnd) + timing.timeoutSeconds() * 1000L + 30_000;
    }

    /** A counted window ends with the last report; a failed run ends the window if it had started. */
    @Override
    public void close() {
        timer.shutdownNow();
        end();
    }
}
