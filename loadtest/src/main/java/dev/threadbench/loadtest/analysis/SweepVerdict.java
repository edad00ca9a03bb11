package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sweep's sentences, each computed from the results with its figures beside it: where each server x
 * strategy holds the bound and what stops it, the breaking points set against each other where the server is the limit
 * of both, what each strategy costs in CPU per request against the cheapest on the same server (a difference only where
 * the rounds' ranges do not overlap and it is 1 % or more, as the verdict's), and memory per 1,000 connections.
 */
final class SweepVerdict {

    private SweepVerdict() {}

    static List<String> lines(List<SweepPair> pairs) {
        List<String> lines = new ArrayList<>();
        pairs.forEach(p -> lines.add(holding(p)));
        String breakingPoints = breakingPoints(pairs);
        if (breakingPoints != null) {
            lines.add(breakingPoints);
        }
        Map<String, List<SweepPair>> byServer = new LinkedHashMap<>();
        pairs.forEach(p ->
                byServer.computeIfAbsent(p.server(), key -> new ArrayList<>()).add(p));
        byServer.values().forEach(onServer -> {
            String cost = costs(onServer);
            if (cost != null) {
                lines.add(cost);
            }
        });
        String memory = memory(pairs);
        if (memory != null) {
            lines.add(memory);
        }
        return lines;
    }

    static String holding(SweepPair p) {
        String line = p.label() + " holds the bound (" + SweepPairs.HOLDS_RULE + ") ";
        if (p.limit() == Limit.NONE) {
            line += String.format(Locale.ROOT, "up to the largest swept concurrency, %,d", p.heldAt());
        } else {
            line += (p.heldAt() == null
                            ? "at none of the swept concurrencies"
                            : String.format(Locale.ROOT, "up to %,d connections", p.heldAt()))
                    + (p.breakingPoint() == null
                            ? ""
                            : String.format(
                                    Locale.ROOT, ", not at %,d: breaking point %,d", p.notHeldAt(), p.breakingPoint()))
                    + "; then " + (p.serverLimited() ? "" : "no breaking point of its own: ") + p.limitDetail();
        }
        return line + (p.shortBelow() == null ? "" : " (short of it or failures below, at " + p.shortBelow() + ")")
                + (p.endsReading().isEmpty() ? "" : "; its " + p.endsReading())
                + ".";
    }

    /**
     * The breaking points set against each other, only those where the server itself was the limit (a pair the
     * generator or the machine stopped, whose limit the evidence does not show, or whose ends measured again disagree
     * says nothing about its server), each against the lowest: a difference only where the intervals (last held, first
     * not held) do not overlap.
     */
    static String breakingPoints(List<SweepPair> pairs) {
        if (pairs.size() < 2) {
            return null;
        }
        List<SweepPair> own = pairs.stream()
                .filter(p -> p.serverLimited() && p.breakingPoint() != null)
                .sorted(Comparator.comparingInt(SweepPair::breakingPoint))
                .toList();
        List<SweepPair> others = pairs.stream().filter(p -> !own.contains(p)).toList();
        StringBuilder line = new StringBuilder("Breaking points");
        if (own.size() >= 2) {
            line.append(" where the server itself is the limit: ")
                    .append(String.join(
                            ", ",
                            own.stream().map(p -> p.label() + " " + p.reading()).toList()))
                    .append(": ");
            SweepPair lowest = own.getFirst();
            List<String> parts = new ArrayList<>();
            for (SweepPair p : own.subList(1, own.size())) {
                parts.add(
                        p.heldAt() >= lowest.notHeldAt()
                                ? String.format(
                                        Locale.ROOT,
                                        "%s holds %.1fx the connections %s does",
                                        p.label(),
                                        p.breakingPoint() / (double) lowest.breakingPoint(),
                                        lowest.label())
                                : String.format(
                                        Locale.ROOT,
                                        "%s and %s: not told apart (their intervals overlap)",
                                        p.label(),
                                        lowest.label()));
            }
            line.append(String.join("; ", parts));
        } else {
            line.append(": none set against another: ")
                    .append(
                            own.isEmpty()
                                    ? "no pair has"
                                    : "only " + own.getFirst().label() + ", "
                                            + own.getFirst().reading() + ", has")
                    .append(" the server as its limit");
        }
        if (!others.isEmpty()) {
            line.append(". Not compared, their limit not the server's: ")
                    .append(String.join(
                            "; ",
                            others.stream()
                                    .map(p -> p.label() + ", " + p.reading())
                                    .toList()));
        }
        return line.append('.').toString();
    }

    /** On one server, each strategy's CPU per request against the cheapest's, at the same concurrency. */
    static String costs(List<SweepPair> onServer) {
        List<SweepPair> measured =
                onServer.stream().filter(p -> p.cpuMicrosPerRequest() != null).toList();
        if (measured.size() < 2) {
            return null;
        }
        SweepPair cheapest = measured.stream()
                .min(Comparator.comparingDouble(p -> p.cpuMicrosPerRequest().median()))
                .orElseThrow();
        List<String> parts = measured.stream()
                .filter(p -> p != cheapest)
                .map(p -> against(p, cheapest))
                .toList();
        boolean sameConcurrency =
                measured.stream().map(SweepPair::cpuConcurrency).distinct().count() == 1;
        return String.format(
                Locale.ROOT,
                "On %s at %s: %s.",
                cheapest.server(),
                sameConcurrency
                        ? String.format(Locale.ROOT, "%,d connections", cheapest.cpuConcurrency())
                        : "the concurrency nearest 2,000",
                String.join("; ", parts));
    }

    /** One strategy's CPU per request against the cheapest's. */
    private static String against(SweepPair p, SweepPair cheapest) {
        Spread x = p.cpuMicrosPerRequest();
        Spread y = cheapest.cpuMicrosPerRequest();
        String figures = String.format(Locale.ROOT, "%.1f vs %.1f us", x.median(), y.median());
        return switch (Spread.judge(x, y)) {
            case APART ->
                100 * (1 - y.median() / x.median()) < Verdict.NAMEABLE_PERCENT
                        ? String.format(
                                Locale.ROOT,
                                "%s and %s: no difference worth naming (%s: the ranges do not overlap, but that is"
                                        + " under %.0f %%)",
                                p.strategy(),
                                cheapest.strategy(),
                                figures,
                                Verdict.NAMEABLE_PERCENT)
                        : String.format(
                                Locale.ROOT,
                                "%s costs %.1fx the CPU per request of %s (%s, the ranges do not overlap)",
                                p.strategy(),
                                x.median() / y.median(),
                                cheapest.strategy(),
                                figures);
            case OVERLAP ->
                String.format(
                        Locale.ROOT,
                        "%s and %s: no measurable difference (%s, ranges overlap)",
                        p.strategy(),
                        cheapest.strategy(),
                        figures);
            default ->
                String.format(
                        Locale.ROOT,
                        "%s costs %.1fx the CPU per request of %s (%s; one round: no spread to judge it by)",
                        p.strategy(),
                        x.median() / y.median(),
                        cheapest.strategy(),
                        figures);
        };
    }

    /** Peak RSS and heap after GC per 1,000 connections, the steepest first; how much of the steepest is live data. */
    static String memory(List<SweepPair> pairs) {
        List<SweepPair> measured = pairs.stream()
                .filter(p -> p.rssMbPer1000() != null || p.heapMbPer1000() != null)
                .sorted(Comparator.comparing(SweepPair::rssMbPer1000, Comparator.nullsLast(Comparator.reverseOrder())))
                .toList();
        if (measured.isEmpty()) {
            return null;
        }
        String list = String.join(
                ", ",
                measured.stream()
                        .map(p -> String.format(
                                Locale.ROOT, "%s %s / %s", p.label(), mb(p.rssMbPer1000()), mb(p.heapMbPer1000())))
                        .toList());
        SweepPair steepest = measured.getFirst();
        String live =
                steepest.rssMbPer1000() == null || steepest.heapMbPer1000() == null || steepest.rssMbPer1000() <= 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " Of %s's %s per 1,000 connections, live data (heap after GC) is %s: %s.",
                                steepest.label(),
                                mb(steepest.rssMbPer1000()),
                                mb(steepest.heapMbPer1000()),
                                steepest.heapMbPer1000() >= 0.5 * steepest.rssMbPer1000()
                                        ? "most of it"
                                        : "the rest is heap the JVM committed because it may, and native memory"
                                                + " (thread stacks, buffers)");
        return "Memory per 1,000 connections, peak RSS / heap after GC: " + list + "." + live;
    }

    private static String mb(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%+.1f MB", value);
    }
}
