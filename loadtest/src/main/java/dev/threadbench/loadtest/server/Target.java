package dev.threadbench.loadtest.server;

import dev.threadbench.loadtest.base.RunFailure;
import java.net.URI;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A server compare drives: one it started from its jar ({@link StartedServer}), or one already running ({@link
 * RunningServer}).
 */
public interface Target extends AutoCloseable {

    /**
     * What GET /stats says; {@code process} null when the server does not report its process figures, everything null
     * or 0 when it has no /stats ({@link #unreported}).
     */
    public record Stats(
            String server, String strategy, long requests, long delayed, long inFlight, ProcessFigures process) {

        /** A server without /stats (any server under --targets): nothing counted, nothing known of its cost. */
        public static Stats unreported() {
            return new Stats(null, null, 0, 0, 0, null);
        }

        /** Whether the server answers /stats at all. */
        public boolean reported() {
            return server != null;
        }

        /**
         * The servers delay exactly every Nth request and derive {@code delayed} from {@code requests}: this checks N
         * (true for a server without /stats, which gives nothing to check).
         */
        public boolean delaysEvery(int delayEvery) {
            return !reported() || delayed == (delayEvery == 0 ? 0 : requests / delayEvery);
        }
    }

    /** Thrown when a server will not start or answer: compare stops, exit code 1. */
    public final class Failure extends RunFailure {
        Failure(String message) {
            super(message);
        }
    }

    public String name();

    public URI base();

    /** "2.4.4.Final", say, when the server said so; null when unknown. */
    public String frameworkVersion();

    public Stats stats();

    /** /stats with the bill by thread class (three /proc files per server thread: at a window's edges only). */
    public default Stats statsWithThreadClasses() {
        return stats();
    }

    /** /stats once nothing is in flight (the last delayed answers written), within {@code limit}. */
    public default Stats idleStats(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        Stats stats = stats();
        while (stats.inFlight() > 0 && System.nanoTime() < deadline) {
            ServerHttp.sleep(50);
            stats = stats();
        }
        return stats;
    }

    /**
     * The server JVM's process id when compare started it, on this machine (--profile attaches to it, and this
     * machine's accept queue is its); empty for a server already running (--targets), whose process compare knows not.
     */
    public default OptionalLong pid() {
        return OptionalLong.empty();
    }

    /** Whether compare started this server (then it stops it, and knows its process). */
    public default boolean startedByCompare() {
        return pid().isPresent();
    }

    /** Stops the server and gives its exit code; empty when compare did not start it, so leaves it running. */
    public OptionalInt stop(Duration grace);

    @Override
    public void close();
}
