package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What stopped a sweep pair at its first concurrency not held ({@link Limit}), read from that concurrency's rounds, and
 * the evidence printed with it.
 */
final class LimitEvidence {

    /**
     * A side whose CPUs, or a worker pool whose threads, were this busy or more was full ({@code RunAnalysis}'s 0.9).
     */
    static final double FULL = 0.9;

    private LimitEvidence() {}

    /** More than half of {@code rounds}. */
    static boolean most(long count, int rounds) {
        return 2 * count > rounds;
    }

    /**
     * What the evidence at the first concurrency not held shows in most of its rounds: accept-queue drops (the
     * machine's), the server's worker pool held by delayed requests (the server's, whatever else), one side short of
     * CPU time and not the other, or none of these (or both sides short): unexplained. A side is short of CPU time in a
     * round when its CPUs were full or its request threads starved: they waited on the run queue as long as they ran,
     * which a core shared by thousands of threads can show without reading full.
     */
    static Limit limitAt(Cell cell) {
        int rounds = cell.rounds();
        if (most(cell.dropRounds(), rounds)) {
            return Limit.MACHINE;
        }
        if (most(cell.workerPoolRounds(FULL), rounds)) {
            return Limit.SERVER;
        }
        boolean server = most(cell.serverShortOfCpuRounds(), rounds);
        boolean generator = most(cell.generatorShortOfCpuRounds(), rounds);
        return server && !generator ? Limit.SERVER : generator && !server ? Limit.GENERATOR : Limit.UNEXPLAINED;
    }

    static String because(Limit limit, Cell cell) {
        int rounds = cell.rounds();
        return switch (limit) {
            case MACHINE -> "the machine's limit (connection attempts dropped at a full accept queue in most rounds)";
            case SERVER ->
                most(cell.workerPoolRounds(FULL), rounds)
                        ? "the server's limit (its worker pool held by delayed requests in most rounds)"
                        : "the server's limit ("
                                + shortOf(cell.serverBoundRounds(), cell.serverStarvedRounds(), rounds)
                                + " in most rounds, the generator's not)";
            case GENERATOR ->
                "the generator's limit ("
                        + shortOf(cell.generatorBoundRounds(), cell.generatorStarvedRounds(), rounds)
                        + " in most rounds, the server's not)";
            default ->
                most(cell.serverShortOfCpuRounds(), rounds) && most(cell.generatorShortOfCpuRounds(), rounds)
                        ? "unexplained (both sides short of CPU time in most rounds)"
                        : "unexplained (in most rounds neither side's CPUs full nor its threads starved, no worker pool"
                                + " full, no accept-queue drops)";
        };
    }

    /** What a side was short of CPU time by in most rounds: its CPUs full, its threads starved, or one or the other. */
    private static String shortOf(long fullRounds, long starvedRounds, int rounds) {
        if (most(fullRounds, rounds)) {
            return "its CPUs full";
        }
        return most(starvedRounds, rounds)
                ? "its threads starved of CPU time"
                : "its CPUs full or its threads starved of CPU time";
    }

    /**
     * A cell's evidence: "80.0 % of the bound, server CPU 91 % (88-95, full in 2/3, starved in 3/3), generator CPU 45 %
     * (40-52, full in 0/3), worker pool 12 % (full in 0/3), accept-queue drops in 0/3, failed requests 0 (in 0/3)".
     */
    static String evidence(Cell cell) {
        int rounds = cell.rounds();
        List<String> parts = new ArrayList<>();
        parts.add(ratio(cell));
        parts.add(share(
                "server CPU",
                cell.spread(run -> run.serverSide().cpuShare()),
                cell.serverBoundRounds(),
                cell.serverStarvedRounds(),
                rounds));
        parts.add(share(
                "generator CPU",
                cell.spread(run -> run.generatorSide().cpuShare()),
                cell.generatorBoundRounds(),
                cell.generatorStarvedRounds(),
                rounds));
        Spread pool = cell.spread(run -> run.serverSide().workerPoolShare());
        if (pool != null) {
            parts.add(share("worker pool", pool, cell.workerPoolRounds(FULL), 0, rounds));
        }
        parts.add(String.format(Locale.ROOT, "accept-queue drops in %d/%d", cell.dropRounds(), rounds));
        parts.add(String.format(
                Locale.ROOT, "failed requests %,d (in %d/%d)", cell.failed(), cell.failedRounds(), rounds));
        return String.join(", ", parts);
    }

    static String ratio(Cell cell) {
        Spread ratio = cell.spread(run -> run.load().ratioToBound());
        return ratio == null
                ? "- of the bound"
                : String.format(Locale.ROOT, "%.1f %% of the bound", 100 * ratio.median());
    }

    /** A CPU share or the pool's: its median, range and full rounds, then the rounds its threads starved, if any. */
    private static String share(String what, Spread share, long fullRounds, long starvedRounds, int rounds) {
        if (share == null) {
            return what + " n/a";
        }
        String range =
                rounds == 1 ? "" : String.format(Locale.ROOT, "%.0f-%.0f, ", 100 * share.min(), 100 * share.max());
        String starved =
                starvedRounds == 0 ? "" : String.format(Locale.ROOT, ", starved in %d/%d", starvedRounds, rounds);
        return String.format(
                Locale.ROOT,
                "%s %.0f %% (%sfull in %d/%d%s)",
                what,
                100 * share.median(),
                range,
                fullRounds,
                rounds,
                starved);
    }
}
