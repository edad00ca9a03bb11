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
 *                      null unless {@code limit} is the server's, it held somewhere and its ends, measured again, agree:
 *                      a pair the generator or the machine stopped, or whose limit the evidence does not show, has none
 * @param heldAt        the largest concurrency at which it still held ({@link #holds}); null when it held at none. A
 *                      lower one that fell short (one noisy point, say) does not move it, but {@code shortBelow} names it
 * @param notHeldAt     the first concurrency above {@code heldAt} (or the lowest, when it held at none) run and not held;
 *                      null when it held at every one run above
 * @param limit         what stopped it at {@code notHeldAt}, from the evidence there in most rounds ({@link Limit})
 * @param limitAt       where that limit showed: {@code notHeldAt}, or for a concurrency not run that one; null for none
 * @param limitDetail   that in words, with the evidence: each side's CPU share, the worker pool, drops, failures
 * @param shortBelow    the concurrencies below {@code heldAt} that fell short or had failures, with their figures; null
 *                      when none did
 * @param ends          {@code heldAt} and {@code notHeldAt} as first read and as measured again after the narrowing in,
 *                      with the narrowing's procedure; null when they were not measured again
 */
@JsonPropertyOrder({"server", "strategy", "breakingPoint", "heldAt", "notHeldAt", "limit", "limitDetail", "limitAt"})
public record SweepPair(String server, String strategy, Integer breakingPoint, Integer heldAt, Integer notHeldAt, Limit limit,
                        String limitDetail, Integer limitAt, String shortBelow, Double heapMbPer1000, Double rssMbPer1000,
                        int cpuConcurrency, Spread cpuMicrosPerRequest, Spread cpuUserMicrosPerRequest,
                        Spread cpuSystemMicrosPerRequest, Ends ends) {

    /** The share of the bound a concurrency's median round must reach to count as held. */
    public static final double HOLDS = 0.95;
    /** A side whose CPUs, or a worker pool whose threads, were this busy or more was full ({@code RunAnalysis}'s 0.9). */
    public static final double FULL = 0.9;
    static final int CPU_CONCURRENCY = 2000;
    /** The held rule in words, for the tables and the verdict. */
    public static final String HOLDS_RULE = String.format(Locale.ROOT, ">= %.0f %% of the bound (median of the rounds),"
            + " failed requests in fewer than half of the rounds", 100 * HOLDS);

    /** A pair without its ends measured again. */
    public SweepPair(String server, String strategy, Integer breakingPoint, Integer heldAt, Integer notHeldAt, Limit limit,
                     String limitDetail, Integer limitAt, String shortBelow, Double heapMbPer1000, Double rssMbPer1000,
                     int cpuConcurrency, Spread cpuMicrosPerRequest, Spread cpuUserMicrosPerRequest,
                     Spread cpuSystemMicrosPerRequest) {
        this(server, strategy, breakingPoint, heldAt, notHeldAt, limit, limitDetail, limitAt, shortBelow, heapMbPer1000,
                rssMbPer1000, cpuConcurrency, cpuMicrosPerRequest, cpuUserMicrosPerRequest, cpuSystemMicrosPerRequest, null);
    }

    /**
     * One concurrency's reading: its median share of the bound, the rounds with failed requests, whether it held, and
     * the procedure that measured it ({@link Results.Run#phase}).
     */
    public record Reading(int concurrency, String phase, Double ratio, long failedRounds, int rounds, boolean held) {

        static Reading of(Cell cell) {
            Spread ratio = cell.spread(Results.Run::ratioToBound);
            return new Reading(cell.concurrency(), cell.phase(), ratio == null ? null : ratio.median(), cell.failedRounds(),
                    cell.rounds(), holds(cell));
        }

        /** "99.0 % (grid, 3 rounds)", or with failures "94.0 % (ends, 3 rounds, failures in 1)". */
        public String describe() {
            return String.format(Locale.ROOT, "%s (%s, %d round%s%s)", ratio == null ? "-" : String.format(Locale.ROOT, "%.1f %%",
                    100 * ratio), phase == null ? "one server" : phase, rounds, rounds == 1 ? "" : "s",
                    failedRounds == 0 ? "" : ", failures in " + failedRounds);
        }
    }

    /** The two ends of a pair's interval as first read and as measured again after the narrowing in. */
    public record Ends(Reading held, Reading heldAgain, Reading notHeld, Reading notHeldAgain) {

        /** Whether measured again the held end still held and the not-held end still did not. */
        public boolean agree() {
            return heldAgain.held() && !notHeldAgain.held();
        }

        /** "held 10,000: 99.0 % (grid, 3 rounds), again 80.8 % (ends, 3 rounds); not held 11,000: ...". */
        public String describe() {
            return String.format(Locale.ROOT, "held %,d: %s, again %s; not held %,d: %s, again %s", held.concurrency(),
                    held.describe(), heldAgain.describe(), notHeld.concurrency(), notHeld.describe(), notHeldAgain.describe());
        }
    }

    public String label() {
        return server + "/" + strategy;
    }

    /**
     * Whether the server itself, not the generator or the machine, stopped it, as the evidence shows, and its ends measured
     * again (when they were) agree: only then is its breaking point its own and set against others.
     */
    public boolean serverLimited() {
        return limit == Limit.SERVER && (ends == null || ends.agree());
    }

    /** Whether its ends, measured again, disagree with their first reading: no breaking point, both readings shown. */
    public boolean nonMonotone() {
        return ends != null && !ends.agree();
    }

    /** (notHeldAt - heldAt) / heldAt: how far apart the last concurrency held and the first not held are; null without both. */
    public Double interval() {
        return heldAt == null || notHeldAt == null ? null : (notHeldAt - heldAt) / (double) heldAt;
    }

    /**
     * The breaking point in words: "6,900 (held 6,560, not held 7,190)" when the server stopped it; "not found: generator
     * limit at 7,190 (held 6,560)" or "not found: machine limit at 20,000 (held 19,000)" when something else did (never
     * the server's breaking point); "unexplained: not held at 7,190 (held 6,560)"; "non-monotone: ..." when its ends,
     * measured again, disagree; "not found: held at every concurrency, up to 10,000"; "below 250 (not held there)".
     */
    public String reading() {
        String held = heldAt == null ? "" : String.format(Locale.ROOT, " (held %,d)", heldAt);
        if (nonMonotone()) {
            return String.format(Locale.ROOT, "non-monotone: held %,d and not held %,d disagree measured again", heldAt, notHeldAt);
        }
        return switch (limit) {
            case SERVER -> breakingPoint == null ? String.format(Locale.ROOT, "below %,d (not held there)", notHeldAt)
                    : String.format(Locale.ROOT, "%,d (held %,d, not held %,d)", breakingPoint, heldAt, notHeldAt);
            case NONE -> String.format(Locale.ROOT, "not found: held at every concurrency, up to %,d", heldAt);
            case UNEXPLAINED -> String.format(Locale.ROOT, "unexplained: not held at %,d%s", notHeldAt, held);
            default -> String.format(Locale.ROOT, "not found: %s limit at %,d%s", limit, limitAt, held);
        };
    }

    /**
     * One per server x strategy with two or more concurrencies; none for a plain compare at a single one. The ends a sweep
     * measured again after its narrowing in are set beside their first reading, never mixed into it.
     */
    public static List<SweepPair> of(List<Results.Run> runs, List<Results.Skipped> skipped) {
        Map<String, List<Cell>> pairs = new LinkedHashMap<>();
        for (Cell cell : Cell.of(runs).stream().sorted(Comparator.comparing(Cell::server)
                .thenComparing(c -> String.valueOf(c.strategy())).thenComparingInt(Cell::concurrency)).toList()) {
            pairs.computeIfAbsent(cell.label() + " " + cell.engine(), key -> new ArrayList<>()).add(cell);
        }
        List<Cell> ends = Cell.remeasuredEnds(runs);
        return pairs.values().stream().filter(list -> list.size() >= 2).map(list -> ofPair(list, ends.stream()
                .filter(e -> e.label().equals(list.getFirst().label()) && e.engine().equals(list.getFirst().engine())).toList(),
                skipped)).toList();
    }

    /**
     * The pairs of a results file: its {@code sweep} section, or for a file from before it (or one edited without it)
     * computed from its runs as compare would; none for a plain compare.
     */
    public static List<SweepPair> of(Results results) {
        if (results.sweep() != null) {
            return results.sweep();
        }
        return results.settings() != null && results.settings().swept() ? of(results.runs(), results.skipped()) : List.of();
    }

    /** Of the cells' concurrencies, the one CPU per request is compared at: the nearest to 2000, the lower of two as near. */
    static int nearestCpuConcurrency(List<Cell> cells) {
        return cells.stream().map(Cell::concurrency).min(Comparator.comparingInt((Integer c) -> Math.abs(c - CPU_CONCURRENCY))
                .thenComparingInt(c -> c)).orElse(CPU_CONCURRENCY);
    }

    private static SweepPair ofPair(List<Cell> cells, List<Cell> remeasured, List<Results.Skipped> skipped) {
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
        List<String> shortBelow = cells.stream().filter(c -> heldAt != null && c.concurrency() < heldAt
                        && (!holds(c) || c.failedRounds() > 0))
                .map(c -> String.format(Locale.ROOT, "%,d (%s)", c.concurrency(), shortfall(c))).toList();
        Limit limit;
        String detail;
        Integer limitAt = breaking == null ? null : breaking.concurrency();
        if (breaking != null) {
            limit = limitAt(breaking);
            detail = String.format(Locale.ROOT, "%s: at %,d: %s", because(limit, breaking), breaking.concurrency(), evidence(breaking));
        } else {
            int largest = cells.getLast().concurrency();
            Results.Skipped next = skipped.stream().filter(s -> s.concurrency() > largest)
                    .min(Comparator.comparingInt(Results.Skipped::concurrency)).orElse(null);
            limit = next == null ? Limit.NONE : Limit.MACHINE;
            limitAt = next == null ? null : next.concurrency();
            detail = next == null ? String.format(Locale.ROOT, "held at the largest swept concurrency, %,d", largest)
                    : String.format(Locale.ROOT, "the machine's limit: %,d not run: %s", next.concurrency(), next.reason());
        }
        Integer notHeldAt = breaking == null ? null : breaking.concurrency();
        Ends ends = null;
        if (held != null && breaking != null) {
            Cell heldAgain = remeasured.stream().filter(c -> c.concurrency() == heldAt).findFirst().orElse(null);
            Cell notHeldAgain = remeasured.stream().filter(c -> c.concurrency() == notHeldAt).findFirst().orElse(null);
            if (heldAgain != null && notHeldAgain != null) {
                ends = new Ends(Reading.of(held), Reading.of(heldAgain), Reading.of(breaking), Reading.of(notHeldAgain));
            }
        }
        Integer breakingPoint = null;
        if (limit == Limit.SERVER && heldAt != null && (ends == null || ends.agree())) {
            Integer between = ReadableNumber.between(heldAt, notHeldAt);
            breakingPoint = between != null ? between : heldAt;
        }
        return new SweepPair(first.server(), first.strategy(), breakingPoint, heldAt, notHeldAt, limit, detail, limitAt,
                shortBelow.isEmpty() ? null : String.join(", ", shortBelow), perThousand(cells, Results.ServerCost::heapAfterGcMb),
                perThousand(cells, Results.ServerCost::peakRssMb), cpuCell.concurrency(), cpuCell.serverCpuMicrosPerRequest(),
                cpuCell.cost(Results.ServerCost::cpuUserMicrosPerRequest), cpuCell.cost(Results.ServerCost::cpuSystemMicrosPerRequest),
                ends);
    }

    /**
     * Whether a concurrency held: the median of its rounds' shares of the bound {@value #HOLDS} or more, and failed requests
     * in fewer than half of its rounds. One rule for the grid, the narrowing in and the verdict: the median already sets one
     * noisy round's share aside, and a failure in one round of three is that same one round; with one round, any failure
     * breaks it.
     */
    public static boolean holds(Cell cell) {
        Spread ratio = cell.spread(Results.Run::ratioToBound);
        return ratio != null && ratio.median() >= HOLDS && !most(cell.failedRounds(), cell.rounds());
    }

    /** More than half of {@code rounds}. */
    private static boolean most(long count, int rounds) {
        return 2 * count > rounds;
    }

    /**
     * What the evidence at the first concurrency not held shows in most of its rounds: accept-queue drops (the machine's),
     * the server's worker pool held by delayed requests (the server's, whatever else), one side's CPUs full and not the
     * other's, or none of these (or both sides' CPUs full): unexplained. Where the run-queue wait per request lands in
     * /stats, a server starved of CPU time would count here too.
     */
    static Limit limitAt(Cell cell) {
        int rounds = cell.rounds();
        if (most(cell.dropRounds(), rounds)) {
            return Limit.MACHINE;
        }
        if (most(cell.workerPoolRounds(FULL), rounds)) {
            return Limit.SERVER;
        }
        boolean server = most(cell.serverBoundRounds(), rounds);
        boolean generator = most(cell.generatorBoundRounds(), rounds);
        return server && !generator ? Limit.SERVER : generator && !server ? Limit.GENERATOR : Limit.UNEXPLAINED;
    }

    private static String because(Limit limit, Cell cell) {
        int rounds = cell.rounds();
        return switch (limit) {
            case MACHINE -> "the machine's limit (connection attempts dropped at a full accept queue in most rounds)";
            case SERVER -> most(cell.workerPoolRounds(FULL), rounds)
                    ? "the server's limit (its worker pool held by delayed requests in most rounds)"
                    : "the server's limit (its CPUs full in most rounds, the generator's not)";
            case GENERATOR -> "the generator's limit (its CPUs full in most rounds, the server's not)";
            default -> most(cell.serverBoundRounds(), rounds) && most(cell.generatorBoundRounds(), rounds)
                    ? "unexplained (both sides' CPUs full in most rounds)"
                    : "unexplained (neither side's CPUs, a worker pool nor the accept queue full in most rounds)";
        };
    }

    /**
     * A cell's evidence: "80.0 % of the bound, server CPU 91 % (88-95, full in 2/3), generator CPU 45 % (40-52, full in
     * 0/3), worker pool 12 % (full in 0/3), accept-queue drops in 0/3, failed requests 0 (in 0/3)".
     */
    static String evidence(Cell cell) {
        int rounds = cell.rounds();
        List<String> parts = new ArrayList<>();
        parts.add(ratio(cell));
        parts.add(share("server CPU", cell.spread(Results.Run::serverCpuShare), cell.serverBoundRounds(), rounds));
        parts.add(share("generator CPU", cell.spread(Results.Run::generatorCpuShare), cell.generatorBoundRounds(), rounds));
        Spread pool = cell.spread(Results.Run::workerPoolShare);
        if (pool != null) {
            parts.add(share("worker pool", pool, cell.workerPoolRounds(FULL), rounds));
        }
        parts.add(String.format(Locale.ROOT, "accept-queue drops in %d/%d", cell.dropRounds(), rounds));
        parts.add(String.format(Locale.ROOT, "failed requests %,d (in %d/%d)", cell.failed(), cell.failedRounds(), rounds));
        return String.join(", ", parts);
    }

    private static String ratio(Cell cell) {
        Spread ratio = cell.spread(Results.Run::ratioToBound);
        return ratio == null ? "- of the bound" : String.format(Locale.ROOT, "%.1f %% of the bound", 100 * ratio.median());
    }

    private static String share(String what, Spread share, long fullRounds, int rounds) {
        if (share == null) {
            return what + " n/a";
        }
        String range = rounds == 1 ? "" : String.format(Locale.ROOT, "%.0f-%.0f, ", 100 * share.min(), 100 * share.max());
        return String.format(Locale.ROOT, "%s %.0f %% (%sfull in %d/%d)", what, 100 * share.median(), range, fullRounds, rounds);
    }

    private static String shortfall(Cell cell) {
        return String.format(Locale.ROOT, "%s, %,d failed%s", ratio(cell), cell.failed(),
                cell.failedRounds() == 0 ? "" : String.format(Locale.ROOT, " in %d/%d rounds", cell.failedRounds(), cell.rounds()));
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
