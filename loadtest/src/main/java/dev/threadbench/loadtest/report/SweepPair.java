package dev.threadbench.loadtest.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One server x strategy over a sweep's concurrencies (the grid's and those it narrowed in on): memory per 1,000
 * connections (the least-squares slope of heap after GC and of peak RSS against concurrency, over the cells' medians),
 * CPU per request at 2000 (or the swept concurrency nearest it), and the breaking point. What results.json's
 * {@code sweep} section holds, one entry per pair.
 *
 * @param breakingPoint the server's breaking point: a readable number between {@code heldAt} and {@code notHeldAt};
 *                      null unless {@code limit} is "server" and it held somewhere: a pair the generator or the machine
 *                      stopped has none of its own
 * @param heldAt        the largest concurrency at which it still held: >= 95 % of the bound (median of the rounds) with
 *                      no failed request; null when it held at none. A lower one that fell short (one noisy point, say)
 *                      does not move it, but {@code shortBelow} names it
 * @param notHeldAt     the first concurrency above {@code heldAt} (or the lowest, when it held at none) run and not held;
 *                      null when it held at every one run above
 * @param limit         what stopped it at {@code notHeldAt}: "server", "generator" (generator-bound there in as many
 *                      rounds as the server was server-bound or more, so the figure is the generator's limit),
 *                      "machine" (the next concurrency skipped: descriptor limit, memory), or "none" (held at every
 *                      swept concurrency)
 * @param limitAt       where that limit showed: {@code notHeldAt}, or for "machine" the concurrency not run; null for "none"
 * @param limitDetail   that in words, with figures
 * @param shortBelow    the concurrencies below {@code heldAt} that fell short, with their figures; null when none did
 */
@JsonPropertyOrder({"server", "strategy", "breakingPoint", "heldAt", "notHeldAt", "limit", "limitDetail", "limitAt"})
public record SweepPair(String server, String strategy, Integer breakingPoint, Integer heldAt, Integer notHeldAt, String limit,
                        String limitDetail, Integer limitAt, String shortBelow, Double heapMbPer1000, Double rssMbPer1000,
                        int cpuConcurrency, Spread cpuMicrosPerRequest, Spread cpuUserMicrosPerRequest,
                        Spread cpuSystemMicrosPerRequest) {

    /** The share of the bound a concurrency must reach to count as held. */
    public static final double HOLDS = 0.95;
    static final int CPU_CONCURRENCY = 2000;

    public String label() {
        return server + "/" + strategy;
    }

    /** Whether the server itself, not the generator or the machine, stopped it: only then is its breaking point its own. */
    public boolean serverLimited() {
        return "server".equals(limit);
    }

    /** (notHeldAt - heldAt) / heldAt: how far apart the last concurrency held and the first not held are; null without both. */
    public Double interval() {
        return heldAt == null || notHeldAt == null ? null : (notHeldAt - heldAt) / (double) heldAt;
    }

    /**
     * The breaking point in words: "6,900 (held 6,560, not held 7,190)" when the server stopped it; "not found: generator
     * limit at 7,190 (held 6,560)" or "not found: machine limit at 20,000 (held 19,000)" when something else did (never
     * the server's breaking point); "not found: held at every concurrency, up to 10,000"; "below 250 (not held there)".
     */
    public String reading() {
        String held = heldAt == null ? "" : String.format(Locale.ROOT, " (held %,d)", heldAt);
        return switch (limit) {
            case "server" -> breakingPoint == null ? String.format(Locale.ROOT, "below %,d (not held there)", notHeldAt)
                    : String.format(Locale.ROOT, "%,d (held %,d, not held %,d)", breakingPoint, heldAt, notHeldAt);
            case "none" -> String.format(Locale.ROOT, "not found: held at every concurrency, up to %,d", heldAt);
            default -> String.format(Locale.ROOT, "not found: %s limit at %,d%s", limit, limitAt, held);
        };
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

    /**
     * The pairs of a results file: its {@code sweep} section, or for a file from before it (or one edited without it)
     * computed from its runs as compare would; none for a plain compare.
     */
    public static List<SweepPair> of(Results results) {
        if (results.sweep() != null) {
            return results.sweep();
        }
        return results.settings() != null && results.settings().swept()
                ? of(Cell.of(results.runs()), results.skipped()) : List.of();
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
        Integer heldAt = held == null ? null : held.concurrency();
        Cell breaking = cells.stream().filter(c -> heldAt == null || c.concurrency() > heldAt).findFirst().orElse(null);
        List<String> shortBelow = cells.stream().filter(c -> heldAt != null && c.concurrency() < heldAt && !holds(c))
                .map(c -> String.format(Locale.ROOT, "%,d (%s)", c.concurrency(), shortfall(c))).toList();
        String limit;
        String detail;
        Integer limitAt = breaking == null ? null : breaking.concurrency();
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
            limitAt = next == null ? null : next.concurrency();
            detail = next == null ? String.format(Locale.ROOT, "held at the largest swept concurrency, %,d", largest)
                    : String.format(Locale.ROOT, "the machine's limit: %,d not run: %s", next.concurrency(), next.reason());
        }
        Integer notHeldAt = breaking == null ? null : breaking.concurrency();
        Integer breakingPoint = null;
        if ("server".equals(limit) && heldAt != null) {
            Integer between = ReadableNumber.between(heldAt, notHeldAt);
            breakingPoint = between != null ? between : heldAt;
        }
        return new SweepPair(first.server(), first.strategy(), breakingPoint, heldAt, notHeldAt, limit, detail, limitAt,
                shortBelow.isEmpty() ? null : String.join(", ", shortBelow), perThousand(cells, Results.ServerCost::heapAfterGcMb),
                perThousand(cells, Results.ServerCost::peakRssMb), cpuCell.concurrency(), cpuCell.serverCpuMicrosPerRequest(),
                cpuCell.cost(Results.ServerCost::cpuUserMicrosPerRequest), cpuCell.cost(Results.ServerCost::cpuSystemMicrosPerRequest));
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
