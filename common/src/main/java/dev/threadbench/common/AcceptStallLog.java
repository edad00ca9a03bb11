package dev.threadbench.common;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Two lines for a spell during which a server cannot accept connections for lack of file descriptors,
 * however long it lasts and however often accepting stops and starts again within it: one when it
 * begins, one when accepting has worked again for {@link #QUIET}, saying for how long and how many
 * connections were accepted late. Thread-safe; {@link #resumed()} costs one volatile read outside a spell.
 */
public final class AcceptStallLog {

    /** A spell is over once accepting has gone this long without stopping again. */
    public static final Duration QUIET = Duration.ofSeconds(1);

    /** Runs a task after a delay. */
    interface Scheduler {
        void after(long nanos, Runnable task);
    }

    private final String server;
    private final Consumer<String> out;
    private final LongSupplier nanoClock;
    private final Scheduler scheduler;

    private volatile boolean stalled;
    private long stalledSince;
    private long lastStop;
    private long resumedAt;
    private boolean resumedSinceStop;
    private boolean checkScheduled;
    private long acceptedLate;

    /** Lines go to standard error, prefixed {@code <server>-server:} as the servers' other warnings. */
    public AcceptStallLog(String server) {
        this(
                server,
                System.err::println,
                System::nanoTime,
                (nanos, task) -> CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS)
                        .execute(task));
    }

    AcceptStallLog(String server, Consumer<String> out, LongSupplier nanoClock, Scheduler scheduler) {
        this.server = server;
        this.out = out;
        this.nanoClock = nanoClock;
        this.scheduler = scheduler;
    }

    /** Accepting has stopped because {@code reason}; the first stop of a spell logs it. */
    public synchronized void stopped(String reason) {
        long now = nanoClock.getAsLong();
        if (!stalled) {
            stalled = true;
            stalledSince = now;
            acceptedLate = 0;
            out.accept(server + "-server: WARNING: " + reason + ": new connections wait in the accept backlog");
        }
        lastStop = now;
        resumedSinceStop = false;
    }

    /** Accepting works again, for one more connection; during a spell that connection counts as accepted late. */
    public void resumed() {
        if (!stalled) {
            return;
        }
        synchronized (this) {
            if (!stalled) {
                return;
            }
            acceptedLate++;
            if (!resumedSinceStop) {
                resumedSinceStop = true;
                resumedAt = nanoClock.getAsLong();
            }
            if (!checkScheduled) {
                checkScheduled = true;
                scheduler.after(QUIET.toNanos(), this::endIfQuiet);
            }
        }
    }

    private synchronized void endIfQuiet() {
        checkScheduled = false;
        if (!stalled || !resumedSinceStop) {
            return; // stopped again since: the next resume looks again
        }
        long left = lastStop + QUIET.toNanos() - nanoClock.getAsLong();
        if (left > 0) {
            checkScheduled = true;
            scheduler.after(left, this::endIfQuiet);
            return;
        }
        stalled = false;
        out.accept(String.format(
                Locale.ROOT,
                "%s-server: accepting again after %.1f s; %d connection(s) accepted late meanwhile",
                server,
                (resumedAt - stalledSince) / 1e9,
                acceptedLate));
    }
}
