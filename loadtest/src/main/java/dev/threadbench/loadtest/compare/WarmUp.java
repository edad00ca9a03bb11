package dev.threadbench.loadtest.compare;

import dev.threadbench.common.CompilerCpu;
import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * --warmup auto's judgment, asked at each whole delay period: the server's JIT has settled once its compilers used
 * under {@link #JIT_SHARE} of the server's own CPU in each of the last two periods. For a server compare started,
 * its compiler threads' CPU read from its /proc ({@link CompilerCpu}: a compilation in progress counts); for one
 * reached with --targets, the compile time its /stats reports over its CPU time. It fails closed: a period not read
 * is not under, so a server without those figures warms up to the cap, and a run that reaches the cap says so.
 */
final class WarmUp {

    /**
     * The compilers' share of the server's CPU under which a period counts as settled (the curves it was chosen on:
     * docs/cpu-bill.md).
     */
    static final double JIT_SHARE = 0.03;
    /** Consecutive periods under the share that end the warm-up. */
    static final int SETTLED_PERIODS = 2;

    /** The JIT's share of the server's CPU over the period that just ended; null when it could not be read. */
    private final Supplier<Double> periodShare;

    private final List<Double> shares = new ArrayList<>();
    private boolean settled;

    WarmUp(Supplier<Double> periodShare) {
        this.periodShare = periodShare;
    }

    /** Starts counting now (before the load) for a server compare started, else reads its /stats' figures. */
    static WarmUp of(Target server, CostSampler costs) {
        CompilerCpu compilers =
                server.pid().isPresent() ? CompilerCpu.ofProcess(server.pid().getAsLong()) : null;
        if (compilers == null) {
            return new WarmUp(() -> costs.recentJitShare(RunLength.AUTO_WARMUP_JIT_SECONDS));
        }
        compilers.next();
        return new WarmUp(() -> share(compilers.next()));
    }

    /** For a run whose warm-up is fixed: never asked, it reads nothing. */
    static WarmUp notAsked() {
        return new WarmUp(() -> null);
    }

    /** The period that just ended read, and whether the warm-up may end here. */
    synchronized boolean settled() {
        shares.add(periodShare.get());
        settled = shares.size() >= SETTLED_PERIODS
                && shares.subList(shares.size() - SETTLED_PERIODS, shares.size()).stream()
                        .allMatch(WarmUp::under);
        return settled;
    }

    /** The JIT's share in the last period read; null before one, or when it could not be read. */
    synchronized Double lastShare() {
        return shares.isEmpty() ? null : shares.getLast();
    }

    /** Whether the warm-up was judged and ended at the cap, not settled. */
    synchronized boolean capped() {
        return !shares.isEmpty() && !settled;
    }

    private static Double share(CompilerCpu.Period period) {
        return period == null ? null : period.share();
    }

    private static boolean under(Double share) {
        return share != null && share < JIT_SHARE;
    }

    /** "warm-up 8 s: the JIT's share of the server's CPU per 2 s period 21 %, 6 %, 2.1 %, 0.4 % (settled: ...)". */
    synchronized String line(double seconds) {
        return String.format(Locale.ROOT, "warm-up %.0f s: %s", seconds, reading());
    }

    /** The note of a run whose warm-up ended at the cap ({@link Note#WARMUP_CAPPED}); null otherwise. */
    synchronized String capNote() {
        return capped() ? Note.WARMUP_CAPPED.write(reading()) : null;
    }

    private String reading() {
        String read =
                shares.stream().map(s -> s == null ? "not read" : percent(s)).collect(Collectors.joining(", "));
        return String.format(
                Locale.ROOT,
                "the JIT's share of the server's CPU per %d s period %s (%s)",
                RunLength.AUTO_WARMUP_JIT_SECONDS,
                read.isEmpty() ? "not asked" : read,
                settled
                        ? "settled: " + SETTLED_PERIODS + " under " + percent(JIT_SHARE)
                        : "the cap: not " + SETTLED_PERIODS + " periods in a row under " + percent(JIT_SHARE));
    }

    static String percent(double share) {
        return share < 0.1
                ? String.format(Locale.ROOT, "%.1f %%", 100 * share)
                : String.format(Locale.ROOT, "%.0f %%", 100 * share);
    }
}
