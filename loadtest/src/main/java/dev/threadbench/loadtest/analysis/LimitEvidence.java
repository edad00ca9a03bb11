package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What stopped a sweep pair where holding first failed ({@link Limit}): the evidence in the rounds that did not hold
 * there, set against the same evidence at the held end. Evidence names a side only where it separates the two: present
 * in most rounds not held, and in at most a minority of the held end's rounds. Starved threads, say, show from about
 * half busy (docs/sweep.md records them at a concurrency where every run held): there they name nothing.
 */
final class LimitEvidence {

    /**
     * A side whose CPUs, or a worker pool whose threads, were this busy or more was full ({@code RunAnalysis}'s 0.9).
     */
    static final double FULL = 0.9;

    private LimitEvidence() {}

    /** Who a sign of shortage points at. */
    enum Side {
        MACHINE,
        SERVER,
        GENERATOR
    }

    /** One kind of evidence a round can show. */
    enum Sign {
        ACCEPT_QUEUE_DROPS(Side.MACHINE, "connection attempts dropped at a full accept queue", Run::listenDropped),
        WORKER_POOL_FULL(Side.SERVER, "worker pool held by delayed requests", LimitEvidence::poolShort),
        SERVER_CPUS_FULL(Side.SERVER, "CPUs full", r -> r.serverSide().cpuBound()),
        SERVER_STARVED(Side.SERVER, "threads starved of CPU time", Run::serverStarved),
        /** One or the other of the two above, round by round: short of CPU time either way. */
        SERVER_SHORT_OF_CPU(
                Side.SERVER,
                "CPUs full or threads starved",
                r -> SERVER_CPUS_FULL.shown.test(r) || SERVER_STARVED.shown.test(r)),
        GENERATOR_CPUS_FULL(Side.GENERATOR, "CPUs full", r -> r.generatorSide().cpuBound()),
        GENERATOR_STARVED(Side.GENERATOR, "threads starved of CPU time", Run::generatorStarved),
        GENERATOR_SHORT_OF_CPU(
                Side.GENERATOR,
                "CPUs full or threads starved",
                r -> GENERATOR_CPUS_FULL.shown.test(r) || GENERATOR_STARVED.shown.test(r));

        final Side side;
        final String words;
        private final Predicate<Run> shown;

        Sign(Side side, String words, Predicate<Run> shown) {
            this.side = side;
            this.words = words;
            this.shown = shown;
        }

        long rounds(Cell cell) {
            return cell == null ? 0 : cell.runs().stream().filter(shown).count();
        }

        /** Shown in most of {@code cell}'s rounds. */
        boolean inMost(Cell cell) {
            return cell != null && most(rounds(cell), cell.rounds());
        }

        /** Shown in most rounds not held, and in fewer than half of the held end's rounds: it tells them apart. */
        boolean separates(Cell notHeld, Cell held) {
            return inMost(notHeld) && held != null && 2 * rounds(held) < held.rounds();
        }
    }

    /**
     * The pool full, and smaller than the workers {@value SweepPairs#HOLDS} of the bound would hold (its share over the
     * share of the bound reached): full alone shows at a held end right at the pool's size too, where it suffices.
     */
    static boolean poolShort(Run r) {
        Double pool = r.serverSide().workerPoolShare();
        Double ratio = r.load().ratioToBound();
        return pool != null && pool >= FULL && ratio != null && ratio > 0 && pool / ratio * SweepPairs.HOLDS > 1;
    }

    /** A limit and why, in words. */
    record Finding(Limit limit, String because) {}

    /** More than half of {@code rounds}. */
    static boolean most(long count, int rounds) {
        return 2 * count > rounds;
    }

    /**
     * The limit the rounds {@code notHeld} (those that did not hold where holding first failed) show against the held
     * end's rounds {@code held} (null when it held nowhere): the machine's, the server's or the generator's where that
     * side's evidence separates the two and the other side was not short of CPU time in most rounds not held; a point
     * missed in most rounds only through failed requests, with the rate held, is not read from CPU evidence;
     * otherwise unexplained. A full worker pool beside a generator short of CPU time is unexplained too.
     */
    static Finding limitAt(Cell notHeld, Cell held) {
        int rounds = notHeld.rounds();
        if (Sign.ACCEPT_QUEUE_DROPS.separates(notHeld, held)) {
            return new Finding(Limit.MACHINE, "the machine's limit (" + contrast(Sign.ACCEPT_QUEUE_DROPS) + ")");
        }
        long onlyFailures = notHeld.runs().stream()
                .filter(r -> r.load().ratioToBound() != null
                        && r.load().ratioToBound() >= SweepPairs.HOLDS
                        && r.load().failed().total() > 0)
                .count();
        if (most(onlyFailures, rounds)) {
            return new Finding(
                    Limit.UNEXPLAINED,
                    "unexplained (failed requests: most rounds not held reached the rate and failed only through"
                            + " failed requests, which CPU time does not explain)");
        }
        if (held == null) {
            return new Finding(
                    Limit.UNEXPLAINED, "unexplained (it held nowhere: no held end to set the evidence against)");
        }
        List<Sign> serverShort = shown(notHeld, Side.SERVER);
        List<Sign> generatorShort = shown(notHeld, Side.GENERATOR);
        List<Sign> serverSeparates = separating(notHeld, held, Side.SERVER);
        List<Sign> generatorSeparates = separating(notHeld, held, Side.GENERATOR);
        if (!serverSeparates.isEmpty() && generatorShort.isEmpty()) {
            return new Finding(
                    Limit.SERVER,
                    "the server's limit (" + contrasts(serverSeparates) + "; the generator not short of CPU time)");
        }
        if (!generatorSeparates.isEmpty() && serverShort.isEmpty()) {
            return new Finding(
                    Limit.GENERATOR,
                    "the generator's limit (" + contrasts(generatorSeparates) + "; the server not short of CPU time)");
        }
        if (!serverShort.isEmpty() && !generatorShort.isEmpty()) {
            return new Finding(
                    Limit.UNEXPLAINED,
                    "unexplained (both sides short in most rounds not held: " + words(serverShort, "the server's")
                            + "; " + words(generatorShort, "the generator's") + ")");
        }
        List<Sign> shortBoth = new ArrayList<>(serverShort);
        shortBoth.addAll(generatorShort);
        if (!shortBoth.isEmpty()) {
            return new Finding(
                    Limit.UNEXPLAINED,
                    "unexplained (" + words(shortBoth, serverShort.isEmpty() ? "the generator's" : "the server's")
                            + " in most rounds not held, but at the held end too: it does not tell them apart)");
        }
        return new Finding(
                Limit.UNEXPLAINED,
                "unexplained (in most rounds not held neither side's CPUs full nor its threads starved, no worker pool"
                        + " full, no accept-queue drops)");
    }

    private static List<Sign> shown(Cell cell, Side side) {
        return sharpest(Arrays.stream(Sign.values())
                .filter(s -> s.side == side && s.inMost(cell))
                .toList());
    }

    private static List<Sign> separating(Cell notHeld, Cell held, Side side) {
        return sharpest(Arrays.stream(Sign.values())
                .filter(s -> s.side == side && s.separates(notHeld, held))
                .toList());
    }

    /** Full or starved, the two together, only where neither alone is shown. */
    private static List<Sign> sharpest(List<Sign> signs) {
        List<Sign> alone = signs.stream()
                .filter(s -> s != Sign.SERVER_SHORT_OF_CPU && s != Sign.GENERATOR_SHORT_OF_CPU)
                .toList();
        return alone.isEmpty() ? signs : alone;
    }

    private static String contrast(Sign sign) {
        return sign.words + " in most rounds not held, in a minority at the held end";
    }

    private static String contrasts(List<Sign> signs) {
        return words(signs, "its") + " in most rounds not held, in a minority at the held end";
    }

    /** "its CPUs full and its threads starved of CPU time". */
    private static String words(List<Sign> signs, String whose) {
        return String.join(
                " and ", signs.stream().map(s -> whose + " " + s.words).toList());
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
