package dev.threadbench.loadtest.runner;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The measured part of a load: when it starts and ends, and which requests count. Its edges are
 * scheduled here, on a timer thread of their own; at each, the runner's CPU clock is read and the
 * caller's {@link LoadRunner.Phases} told. A timed window ends at its time; a counted one (drill's
 * iterations) once its last measured request is answered, which {@link #finish} is told.
 */
final class MeasuredWindow implements AutoCloseable {

    /** A plan run's permission to go on: unmeasured, measured, or measured if it completes inside the window. */
    enum Ticket {
        WARMUP,
        MEASURED,
        BY_COMPLETION
    }

    private final LoadShape shape;
    private final Duration rampup;
    private final LoadRunner.Phases phases;
    private final CpuClock cpu = new CpuClock();
    private final AtomicLong ticketsLeft = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "loadtest-window");
        thread.setDaemon(true);
        return thread;
    });
    /** Appended on the timer thread too (a warm-up of steps schedules the end once it has ended). */
    private final List<Future<?>> edges = new CopyOnWriteArrayList<>();
    /**
     * Set by {@link #open}, before any slot starts; a warm-up of steps sets the window's edges later, on the timer
     * thread.
     */
    private long startNanos;

    private volatile long measureStartNanos;
    private volatile long measureEndNanos;
    private long countedEndNanos;

    MeasuredWindow(LoadShape shape, Duration rampup, LoadRunner.Phases phases) {
        this.shape = shape;
        this.rampup = rampup;
        this.phases = phases;
    }

    /**
     * The load starts now: the edges are scheduled, or, with nothing unmeasured before it, measuring starts at once.
     */
    void open() {
        startNanos = System.nanoTime();
        long unmeasuredNanos = rampup.toNanos() + shape.warmup().toNanos();
        switch (shape) {
            case LoadShape.Timed timed
            when timed.warmupStep() != null -> {
                measureStartNanos = Long.MAX_VALUE;
                measureEndNanos = Long.MAX_VALUE;
                long step = timed.warmupStep().toNanos();
                long first = wholeSteps(rampup.toNanos() + step, step);
                long cap = Math.max(first, wholeSteps(unmeasuredNanos, step));
                edges.add(at(
                        startNanos + first,
                        () -> warmUpStep(startNanos + first, step, startNanos + cap, timed.duration())));
                return;
            }
            case LoadShape.Timed timed -> {
                measureStartNanos = startNanos + unmeasuredNanos;
                measureEndNanos = measureStartNanos + timed.duration().toNanos();
            }
            case LoadShape.Counted counted -> {
                measureStartNanos = counted.warmup().isZero() ? startNanos : startNanos + unmeasuredNanos;
                measureEndNanos = Long.MAX_VALUE;
                ticketsLeft.set(counted.iterations());
            }
        }
        if (measureStartNanos == startNanos) {
            startMeasuring();
        } else {
            edges.add(at(measureStartNanos, this::startMeasuring));
        }
        if (shape instanceof LoadShape.Timed) {
            edges.add(at(measureEndNanos, this::endMeasuring));
        }
    }

    /** {@code nanos} rounded up to whole steps. */
    private static long wholeSteps(long nanos, long step) {
        return (nanos + step - 1) / step * step;
    }

    /**
     * At a whole step of the warm-up, {@code at}: measuring starts there when the caller says the warm-up may end or
     * the cap is reached; otherwise the next step is asked.
     */
    private void warmUpStep(long at, long step, long capAt, Duration duration) {
        if (phases.warmedUp() || at >= capAt) { // asked at the cap too: the caller says what it read there
            measureEndNanos = at + duration.toNanos();
            measureStartNanos = at;
            startMeasuring();
            edges.add(at(measureEndNanos, this::endMeasuring));
        } else {
            edges.add(at(at + step, () -> warmUpStep(at + step, step, capAt, duration)));
        }
    }

    private void startMeasuring() {
        cpu.start();
        phases.measureStarted();
    }

    private void endMeasuring() {
        cpu.stop();
        phases.measureEnded();
    }

    private Future<?> at(long nanoTime, Runnable edge) {
        return timer.schedule(edge, Math.max(0, nanoTime - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Whether a plan run may start at {@code now}, and how it counts; null: the slot stops. */
    Ticket next(long now) {
        return switch (shape) {
            case LoadShape.Timed t -> now < measureEndNanos ? Ticket.BY_COMPLETION : null;
            case LoadShape.Counted c -> {
                if (now < measureStartNanos) {
                    yield Ticket.WARMUP;
                }
                yield ticketsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0 ? Ticket.MEASURED : null;
            }
        };
    }

    /** Whether a request of this ticket that completed at {@code end} is measured. */
    boolean measured(Ticket ticket, long end) {
        return switch (ticket) {
            case WARMUP -> false;
            case MEASURED -> true;
            case BY_COMPLETION -> end >= measureStartNanos && end < measureEndNanos;
        };
    }

    /** When the load started ({@link #open}). */
    long startNanos() {
        return startNanos;
    }

    /** When a timed window ends: the open model's schedule stops there. */
    long measureEndNanos() {
        return measureEndNanos;
    }

    /** Whether {@code nanoTime} falls inside the measured window. */
    boolean inside(long nanoTime) {
        return nanoTime >= measureStartNanos && nanoTime < measureEndNanos;
    }

    /** True once a timed window is over: a plan run stops between its steps. */
    boolean over(long now) {
        return now >= measureEndNanos;
    }

    String phase(long now) {
        return now < measureStartNanos ? "warm-up" : "measuring";
    }

    /** Until a timed window ends; NaN for a counted one, and while a warm-up of steps has not ended. */
    double secondsLeft(long now) {
        return shape instanceof LoadShape.Timed && measureEndNanos != Long.MAX_VALUE
                ? Math.max(0, (measureEndNanos - now) / 1e9)
                : Double.NaN;
    }

    long ticketsLeft() {
        return ticketsLeft.get();
    }

    /** Every slot has finished, the last at {@code endNanos}: waits for the edges; a counted window ends here. */
    void finish(long endNanos) {
        for (Future<?> edge : edges) { // a warm-up of steps had added its end before any slot could finish
            try {
                edge.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                throw new IllegalStateException("measurement edge failed", e.getCause());
            }
        }
        if (shape instanceof LoadShape.Counted) {
            countedEndNanos = endNanos;
            endMeasuring();
        }
    }

    double seconds() {
        return ((shape instanceof LoadShape.Counted ? countedEndNanos : measureEndNanos) - measureStartNanos) / 1e9;
    }

    /** The measured window's start, in seconds since the load's start. */
    double measureStartSecond() {
        return (measureStartNanos - startNanos) / 1e9;
    }

    /** The measured window's end, in seconds since the load's start (a counted one's, once {@link #finish}ed). */
    double measureEndSecond() {
        return ((shape instanceof LoadShape.Counted ? countedEndNanos : measureEndNanos) - startNanos) / 1e9;
    }

    double cpuSeconds() {
        return cpu.seconds();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
