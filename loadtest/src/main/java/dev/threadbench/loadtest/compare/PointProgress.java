package dev.threadbench.loadtest.compare;

import java.util.Locale;

/**
 * Where a compare is, as each point (one run) ends: "[12/108, 5 min 10 s so far, about 41 min left] ". The points in
 * all are "about": a sweep's narrowing in is counted at most until it is known, then counted again.
 */
final class PointProgress {

    private int points;
    private int done;
    private long startNanos;

    /** The clock starts now, {@code points} to go. */
    void start(int points) {
        this.points = points;
        this.done = 0;
        this.startNanos = System.nanoTime();
    }

    /** From here on, {@code more} points still to go (once the sweep knows them). */
    void remaining(int more) {
        points = done + more;
    }

    /** The point under way, as the live page shows it: "run 13 of 108". */
    String current() {
        return String.format(Locale.ROOT, "run %d of %s%d", done + 1, done + 1 < points ? "about " : "", points);
    }

    /** One more point done: the prefix of its line. */
    String next() {
        done++;
        long elapsed = (System.nanoTime() - startNanos) / 1_000_000_000L;
        long left = done == points ? 0 : elapsed * (points - done) / done;
        return String.format(
                Locale.ROOT,
                "[%d/%d, %s so far%s] ",
                done,
                points,
                minutes(elapsed),
                left == 0 ? "" : ", about " + minutes(left) + " left");
    }

    private static String minutes(long seconds) {
        return seconds < 60 ? seconds + " s" : String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
}
