package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The two servers set against each other at each concurrency, in requests/s and in server CPU per request.
 * A difference is named only where the two cells' ranges over the rounds do not overlap and the medians lie 1 % or
 * more apart ({@link Spread#judge}); never one in requests/s when the generator was the limit; a server that used all
 * its CPUs is said to have.
 */
public final class Verdict {

    /**
     * Below this a difference is not named even when the rounds' ranges do not overlap: two tight ranges at the
     * bound can sit 0.03 % apart, which says nothing about the servers.
     */
    static final double NAMEABLE_PERCENT = 1;

    private Verdict() {}

    /**
     * The verdict of a results file: for a sweep, its sentences ({@link SweepVerdict}) and then the servers set
     * against each other at the concurrency nearest 2000; otherwise the servers at each concurrency.
     */
    public static List<String> lines(Results results) {
        List<Cell> cells = Cell.of(results.runs());
        if (!results.swept()) {
            return lines(cells);
        }
        List<SweepPair> pairs = SweepPairs.of(results);
        List<String> lines = new ArrayList<>(SweepVerdict.lines(pairs));
        int nearest = SweepPairs.nearestCpuConcurrency(cells);
        lines.addAll(
                lines(cells.stream().filter(c -> c.concurrency() == nearest).toList()));
        return lines;
    }

    /** One line per pair: the same strategy on both servers, or each server's only one (its default). */
    public static List<String> lines(List<Cell> cells) {
        Map<List<Object>, List<Cell>> groups = new LinkedHashMap<>();
        for (Cell cell : cells) {
            groups.computeIfAbsent(
                            List.of(cell.concurrency(), String.valueOf(cell.targetRate()), cell.engine()),
                            key -> new ArrayList<>())
                    .add(cell);
        }
        List<String> lines = new ArrayList<>();
        for (List<Cell> group : groups.values()) {
            List<String> servers = group.stream().map(Cell::server).distinct().toList();
            if (servers.size() != 2) {
                continue;
            }
            List<Cell> first = group.stream()
                    .filter(c -> c.server().equals(servers.get(0)))
                    .toList();
            List<Cell> second = group.stream()
                    .filter(c -> c.server().equals(servers.get(1)))
                    .toList();
            boolean paired = false;
            for (Cell a : first) {
                for (Cell b : second) {
                    if (Objects.equals(a.strategy(), b.strategy())) {
                        lines.add(line(a, b));
                        paired = true;
                    }
                }
            }
            if (!paired && first.size() == 1 && second.size() == 1) {
                lines.add(line(first.getFirst(), second.getFirst()));
            }
        }
        return lines;
    }

    static String line(Cell a, Cell b) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "C=%d%s %s vs %s: req/s %s vs %s: %s",
                a.concurrency(),
                a.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", a.targetRate()),
                a.label(),
                b.label(),
                Spread.format(a.requestsPerSecond(), "%,.0f"),
                Spread.format(b.requestsPerSecond(), "%,.0f"),
                throughput(a, b)));
        Spread cpuA = a.requestCpuMicrosPerRequest();
        Spread cpuB = b.requestCpuMicrosPerRequest();
        if (cpuA != null && cpuB != null) {
            boolean billed = a.billed() && b.billed();
            line.append(String.format(
                    Locale.ROOT,
                    "; %s us/req %s vs %s: %s",
                    billed ? "request CPU" : "srv CPU",
                    cpuA.format("%.1f"),
                    cpuB.format("%.1f"),
                    cpu(a, b, billed ? selfShares(a, b) : "")));
        }
        for (Cell cell : List.of(a, b)) {
            if (cell.serverBoundRounds() > 0) {
                line.append(String.format(
                        Locale.ROOT,
                        "; %s server-bound in %d/%d rounds (it used its CPUs to the full)",
                        cell.label(),
                        cell.serverBoundRounds(),
                        cell.rounds()));
            }
        }
        return line.toString();
    }

    private static String throughput(Cell a, Cell b) {
        for (Cell cell : List.of(a, b)) {
            if (cell.aboveBoundRounds() > 0) {
                return String.format(
                        Locale.ROOT,
                        "not judged: above the bound in %d/%d rounds of %s (a measurement artefact, not"
                                + " a result: see the run's note)",
                        cell.aboveBoundRounds(),
                        cell.rounds(),
                        cell.label());
            }
        }
        for (Cell cell : List.of(a, b)) {
            if (cell.generatorBoundRounds() > 0) {
                return String.format(
                        Locale.ROOT,
                        "not judged: generator-bound in %d/%d rounds of %s (the generator's limit,"
                                + " not the server's)",
                        cell.generatorBoundRounds(),
                        cell.rounds(),
                        cell.label());
            }
        }
        Spread x = a.requestsPerSecond();
        Spread y = b.requestsPerSecond();
        return switch (Spread.judge(x, y)) {
            case APART -> {
                boolean aHigher = x.median() > y.median();
                double percent = 100 * (Math.max(x.median(), y.median()) / Math.min(x.median(), y.median()) - 1);
                yield percent < NAMEABLE_PERCENT
                        ? String.format(
                                Locale.ROOT,
                                "no difference worth naming (%.2f %% apart: the ranges do not overlap, but"
                                        + " that is under %.0f %%)",
                                percent,
                                NAMEABLE_PERCENT)
                        : String.format(
                                Locale.ROOT,
                                "%s %.1f %% more (the ranges do not overlap)",
                                (aHigher ? a : b).label(),
                                percent);
            }
            case OVERLAP ->
                String.format(
                        Locale.ROOT,
                        "no difference (ranges overlap; medians %.1f %% apart)",
                        100 * Math.abs(x.median() - y.median()) / Math.min(x.median(), y.median()));
            case NO_SPREAD -> "not judged: one round has no spread (--repeat 3 or more)";
            case NOT_MEASURED -> "not measured";
        };
    }

    /** "; apart: JIT 4 % and GC 2 % of a's CPU, JIT 9 % and GC 1 % of b's": what the request CPU leaves out. */
    private static String selfShares(Cell a, Cell b) {
        return String.format(
                Locale.ROOT,
                "; apart: JIT %s and GC %s of %s's CPU, JIT %s and GC %s of %s's",
                share(a, "jit"),
                share(a, "gc"),
                a.label(),
                share(b, "jit"),
                share(b, "gc"),
                b.label());
    }

    private static String share(Cell cell, String threadClass) {
        Spread share = cell.cost(c -> c.classShare(threadClass));
        return share == null ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * share.median());
    }

    /** The judgement, {@code shares} (what the request CPU leaves out, or empty) inside its parenthesis. */
    private static String cpu(Cell a, Cell b, String shares) {
        Spread x = a.requestCpuMicrosPerRequest();
        Spread y = b.requestCpuMicrosPerRequest();
        return switch (Spread.judge(x, y)) {
            case APART -> {
                boolean aLower = x.median() < y.median();
                double percent = 100 * (1 - Math.min(x.median(), y.median()) / Math.max(x.median(), y.median()));
                yield percent < NAMEABLE_PERCENT
                        ? String.format(
                                Locale.ROOT,
                                "no difference worth naming (%.2f %% apart: the ranges do not overlap, but that is"
                                        + " under %.0f %%%s)",
                                percent,
                                NAMEABLE_PERCENT,
                                shares)
                        : String.format(
                                Locale.ROOT,
                                "%s %.0f %% less (the ranges do not overlap%s)",
                                (aLower ? a : b).label(),
                                percent,
                                shares);
            }
            case OVERLAP -> "no difference (ranges overlap" + shares + ")";
            case NO_SPREAD -> "not judged (one round" + shares + ")";
            case NOT_MEASURED -> "not measured";
        };
    }
}
