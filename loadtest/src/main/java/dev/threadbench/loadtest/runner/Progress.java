package dev.threadbench.loadtest.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The live progress of a load (requests done, requests/s, failures, time left), taken once a second on a timer thread
 * of its own. The rate is over the last {@link #RATE_SECONDS} seconds (fewer at the start, the line says how many): one
 * second's count catches a part of a delayed wave and reads above the bound (5,792 req/s for a 4,997 window at 1,000
 * connections); 10 s is whole periods of the default 2 s delay. On a terminal the line is rewritten in place with \r;
 * else (CI, a pipe) a plain line is printed every {@link #PLAIN_EVERY_SECONDS} seconds.
 */
public final class Progress implements AutoCloseable {

    static final int PLAIN_EVERY_SECONDS = 10;
    static final int RATE_SECONDS = 10;

    /** What the runner reports, taken once a second. */
    public record Snapshot(
            long nanos, long completed, long failed, double secondsLeft, long ticketsLeft, String phase) {}

    /**
     * One tick's figures for a watcher beside the line (compare's live page): the snapshot, requests/s over the last
     * {@code rateSeconds}, and the newest whole second's latency (null before one ends).
     */
    public record Reading(
            Snapshot snapshot,
            double requestsPerSecond,
            int rateSeconds,
            double secondsLeft,
            SecondSeries.Second last) {}

    /** Where progress goes. */
    public interface Sink {
        void update(String line);

        default void done() {}

        /** Whether {@link #read} wants each tick's figures (the newest second's latency is decoded only then). */
        default boolean watched() {
            return false;
        }

        default void read(Reading reading) {}

        /** {@code line}'s lines, and each tick's figures to {@code watcher} on the progress thread. */
        static Sink watched(Sink line, Consumer<Reading> watcher) {
            return new Sink() {
                @Override
                public void update(String text) {
                    line.update(text);
                }

                @Override
                public void done() {
                    line.done();
                }

                @Override
                public boolean watched() {
                    return true;
                }

                @Override
                public void read(Reading reading) {
                    watcher.accept(reading);
                }
            };
        }

        /** Nothing: for tests and for engines with their own output. */
        Sink NONE = line -> {};

        /** A line rewritten in place on a terminal, else a plain line now and then. */
        static Sink forStream(PrintStream out, boolean terminal) {
            if (terminal) {
                return new Sink() {
                    private int lastLength;

                    @Override
                    public void update(String line) {
                        out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
                        out.flush();
                        lastLength = line.length();
                    }

                    @Override
                    public void done() {
                        if (lastLength > 0) {
                            out.print("\r" + " ".repeat(lastLength) + "\r");
                            out.flush();
                            lastLength = 0;
                        }
                    }
                };
            }
            return new Sink() {
                private long calls;

                @Override
                public void update(String line) {
                    if (calls++ % PLAIN_EVERY_SECONDS == PLAIN_EVERY_SECONDS - 1) {
                        out.println(line);
                    }
                }
            };
        }

        /** True when stderr is a terminal (not under CI, not redirected). */
        static boolean stderrIsTerminal() {
            if (System.getenv("CI") != null) {
                return false;
            }
            try {
                String target =
                        Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
    }

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "loadtest-progress");
        thread.setDaemon(true);
        return thread;
    });
    private final Sink sink;
    private final Supplier<Snapshot> source;
    private final Supplier<SecondSeries.Second> lastSecond;
    private final TrailingRate rate = new TrailingRate();
    private volatile boolean closed;

    Progress(Sink sink, Supplier<Snapshot> source) {
        this(sink, source, () -> null);
    }

    Progress(Sink sink, Supplier<Snapshot> source, Supplier<SecondSeries.Second> lastSecond) {
        this.sink = sink;
        this.source = source;
        this.lastSecond = lastSecond;
        rate.add(source.get());
        timer.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    private void tick() {
        Snapshot now = source.get();
        double perSecond = rate.add(now);
        double left = !Double.isNaN(now.secondsLeft())
                ? now.secondsLeft()
                : perSecond > 0 ? now.ticketsLeft() / perSecond : Double.NaN;
        int rateSeconds = (int) Math.round(rate.seconds());
        sink.update(line(now, perSecond, rateSeconds, left));
        if (sink.watched()) {
            sink.read(new Reading(now, perSecond, rateSeconds, left, lastSecond.get()));
        }
    }

    /** Requests/s between the oldest and the newest of the last {@link #RATE_SECONDS} + 1 snapshots. */
    static final class TrailingRate {
        private final ArrayDeque<Snapshot> recent = new ArrayDeque<>();

        /** Adds the newest snapshot (taken once a second) and returns the rate over those kept. */
        double add(Snapshot now) {
            recent.addLast(now);
            while (recent.size() > RATE_SECONDS + 1) {
                recent.removeFirst();
            }
            double seconds = seconds();
            return seconds > 0 ? (now.completed() - recent.getFirst().completed()) / seconds : 0;
        }

        /** The span the rate is taken over. */
        double seconds() {
            return (recent.getLast().nanos() - recent.getFirst().nanos()) / 1e9;
        }
    }

    static String line(Snapshot snapshot, double rate, int rateSeconds, double secondsLeft) {
        String left = Double.isNaN(secondsLeft) ? "?" : String.format(Locale.ROOT, "%.0f s", Math.ceil(secondsLeft));
        return String.format(
                Locale.ROOT,
                "%-9s %,12d requests  %,9.0f req/s over the last %2d s  %,d failed  %s left",
                snapshot.phase(),
                snapshot.completed(),
                rate,
                rateSeconds,
                snapshot.failed(),
                left);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            timer.shutdownNow();
            sink.done();
        }
    }
}
