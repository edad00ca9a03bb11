package dev.threadbench.loadtest.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One server x strategy over a sweep's concurrencies: memory per 1,000 connections (the least-squares slope of
 * heap after GC and of peak RSS against concurrency, over the cells' medians), CPU per request at 2000 (or the
 * swept concurrency nearest it), and the breaking point.
 *
 * @param breakingPoint the largest swept concurrency at which it still holds: >= 95 % of the bound (median of the
 *                      rounds) with no failed request; null when it holds at none. A lower one that fell short (one
 *                      noisy point, say) does not move it, but {@code shortBelow} names it
 * @param limit         what stopped it at the next concurrency: "server", "generator" (generator-bound there,
 *                      so the figure is the generator's limit), "machine" (the next one skipped: descriptor limit,
 *                      memory), or "none" (held at every swept concurrency)
 * @param limitDetail   that in words, with figures
 * @param shortBelow    the concurrencies below the breaking point that fell short, with their figures; null when none did
 */
public record SweepPair(String server, String strategy, Double heapMbPer1000, Double rssMbPer1000, int cpuConcurrency,
                        Spread cpuMicrosPerRequest, Spread cpuUserMicrosPerRequest, Spread cpuSystemMicrosPerRequest,
                        Integer breakingPoint, String limit, String limitDetail, String shortBelow) {

    /** The share of the bound a concurrency must reach to count as held. */
    public static final double HOLDS = 0.95;
    static final int CPU_CONCURRENCY = 2000;

    public String label() {
        return server + "/" + strategy;
    }

    /** One per server x strategy with two or more concurrencies; none for a plain compare at a single one. */
    public static List<SweepPair> of(List<Cell> cells, List<Results.Skipped> skipped) {
        Map<String, List<Cell>> pairs = new LinkedHashMap<>();
        for (Cell cell : cells.stream().sorted(Comparator.comparing(Cell::server).thenComparing(c -> String.valueOf(c.strategy()))
                .thenComparingInt(Cell::concurrency)).toList()) {
            pairs.computeIfAbsent(cell.label() + " " + cell.engine(), key -> new ArrayList<>()).add(cell);
        }
        return pairs.values().stream().filter(list -> list.size() >= 2).map(list -> ofPair(list, skipped)).toList();
    }

    /** Of the cells' concurrencies, the one CPU per request is compared at: the nearest to 2000, the lower of two as near. */
    static int nearestCpuConcurrency(List<Cell> cells) {
        return cells.stream().map(Cell::concurrency).min(Comparator.comparingInt((Integer c) -> Math.abs(c - CPU_CONCURRENCY))
                .thenComparingInt(c -> c)).orElse(CPU_CONCURRENCY);
    }

    private static SweepPair ofPair(List<Cell> cells, List<Results.Skipped> skipped) {
        Cell first = cells.getFirst();
        int cpuConcurrency = nearestCpuConcurrency(cells);
        Cell cpuCell = cells.stream().filter(c -> c.concurrency() == cpuConcurrency).findFirst().orElseThrow();
        Cell held = null;
        for (Cell cell : cells) {
            if (holds(cell)) {
                held = cell;
            }
        }
        Integer breakingPoint = held == null ? null : held.concurrency();
        Cell breaking = cells.stream().filter(c -> breakingPoint == null || c.concurrency() > breakingPoint).findFirst().orElse(null);
        List<String> shortBelow = cells.stream().filter(c -> breakingPoint != null && c.concurrency() < breakingPoint && !holds(c))
                .map(c -> String.format(Locale.ROOT, "%,d (%s)", c.concurrency(), shortfall(c))).toList();
        String limit;
        String detail;
        if (breaking != null && breaking.generatorBoundRounds() > 0 && breaking.serverBoundRounds() <= breaking.generatorBoundRounds()) {
            limit = "generator";
            detail = String.format(Locale.ROOT, "the generator's limit: at %,d it was generator-bound in %d/%d rounds (%s)",
                    breaking.concurrency(), breaking.generatorBoundRounds(), breaking.rounds(), shortfall(breaking));
        } else if (breaking != null) {
            limit = "server";
            detail = String.format(Locale.ROOT, "the server's limit: at %,d %s%s", breaking.concurrency(), shortfall(breaking),
                    breaking.serverBoundRounds() > 0 ? String.format(Locale.ROOT, ", its CPUs used to the full in %d/%d rounds",
                            breaking.serverBoundRounds(), breaking.rounds()) : "");
        } else {
            int largest = cells.getLast().concurrency();
            Results.Skipped next = skipped.stream().filter(s -> s.concurrency() > largest)
                    .min(Comparator.comparingInt(Results.Skipped::concurrency)).orElse(null);
            limit = next == null ? "none" : "machine";
            detail = next == null ? String.format(Locale.ROOT, "held at the largest swept concurrency, %,d", largest)
                    : String.format(Locale.ROOT, "the machine's limit: %,d not run: %s", next.concurrency(), next.reason());
        }
        return new SweepPair(first.server(), first.strategy(), perThousand(cells, Results.ServerCost::heapAfterGcMb),
                perThousand(cells, Results.ServerCost::peakRssMb), cpuCell.concurrency(), cpuCell.serverCpuMicrosPerRequest(),
                cpuCell.cost(Results.ServerCost::cpuUserMicrosPerRequest), cpuCell.cost(Results.ServerCost::cpuSystemMicrosPerRequest),
                breakingPoint, limit, detail, shortBelow.isEmpty() ? null : String.join(", ", shortBelow));
    }

    static boolean holds(Cell cell) {
        Spread ratio = cell.spread(Results.Run::ratioToBound);
        return ratio != null && ratio.median() >= HOLDS && cell.failed() == 0;
    }

    private static String shortfall(Cell cell) {
        Spread ratio = cell.spread(Results.Run::ratioToBound);
        return String.format(Locale.ROOT, "%s of the bound, %,d failed", ratio == null ? "-"
                : String.format(Locale.ROOT, "%.1f %%", 100 * ratio.median()), cell.failed());
    }

    /** The slope of the cells' medians against concurrency, per 1,000 connections; null with fewer than two points. */
    private static Double perThousand(List<Cell> cells, Function<Results.ServerCost, Double> figure) {
        List<double[]> points = new ArrayList<>();
        for (Cell cell : cells) {
            Spread value = cell.cost(figure);
            if (value != null) {
                points.add(new double[] {cell.concurrency(), value.median()});
            }
        }
        Double slope = slope(points);
        return slope == null ? null : Math.round(slope * 1000 * 10) / 10.0;
    }

    /** The least-squares slope of y against x; null for fewer than two distinct x. */
    static Double slope(List<double[]> points) {
        int n = points.size();
        double meanX = points.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double meanY = points.stream().mapToDouble(p -> p[1]).average().orElse(0);
        double sxx = 0;
        double sxy = 0;
        for (double[] p : points) {
            sxx += (p[0] - meanX) * (p[0] - meanX);
            sxy += (p[0] - meanX) * (p[1] - meanY);
        }
        return n < 2 || sxx == 0 ? null : sxy / sxx;
    }
}
