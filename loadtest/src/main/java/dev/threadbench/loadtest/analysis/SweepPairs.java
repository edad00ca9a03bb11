package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Hold;
import dev.threadbench.loadtest.model.Limit;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A sweep's pairs ({@link SweepPair}) computed from its runs: which concurrencies held, the breaking point between the
 * last held and the first not held, and what the evidence there says limited it.
 */
public final class SweepPairs {

    /** The share of the bound a round must reach, without a failed request, to count as held. */
    public static final double HOLDS = 0.95;

    static final int CPU_CONCURRENCY = 2000;
    /** The held rule in words, for the tables and the verdict. */
    public static final String HOLDS_RULE = String.format(
            Locale.ROOT,
            "in every round, every reading pooled: a round at >= %.0f %% of the bound without a failed request",
            100 * HOLDS);

    private SweepPairs() {}

    /** A cell's reading: the median of its rounds' shares of the bound, its failed rounds, whether it held. */
    static SweepPair.Reading reading(Cell cell) {
        Spread ratio = cell.spread(run -> run.load().ratioToBound());
        return new SweepPair.Reading(
                cell.concurrency(),
                cell.phase(),
                ratio == null ? null : ratio.median(),
                cell.failedRounds(),
                cell.rounds(),
                holds(cell),
                heldRounds(cell));
    }

    /**
     * One per server x strategy with two or more concurrencies; none for a plain compare at a single one. The ends a
     * sweep measured again after its narrowing in are set beside their first reading, never mixed into it.
     */
    public static List<SweepPair> of(List<Run> runs, List<Results.Skipped> skipped) {
        Map<String, List<Cell>> pairs = new LinkedHashMap<>();
        for (Cell cell : Cell.of(runs).stream()
                .sorted(Comparator.comparing(Cell::server)
                        .thenComparing(c -> String.valueOf(c.strategy()))
                        .thenComparingInt(Cell::concurrency))
                .toList()) {
            pairs.computeIfAbsent(cell.label() + " " + cell.engine(), key -> new ArrayList<>())
                    .add(cell);
        }
        List<Cell> ends = Cell.remeasuredEnds(runs);
        return pairs.values().stream()
                .filter(list -> list.size() >= 2)
                .map(list -> ofPair(
                        list,
                        ends.stream()
                                .filter(e -> e.label().equals(list.getFirst().label())
                                        && e.engine().equals(list.getFirst().engine()))
                                .toList(),
                        !ends.isEmpty(),
                        skipped))
                .toList();
    }

    /** {@code results} with their sweep section: the pairs computed from the runs (with --sweep; none otherwise). */
    public static Results withSweep(Results results) {
        return results.withSweep(results.swept() ? of(results.runs(), results.skipped()) : null);
    }

    /**
     * The pairs of a results file, computed from its runs by this build's rule, as compare would, so that two files
     * (a sweep and its baseline) are read alike whatever rule the build that wrote them had; its {@code sweep} section
     * (what that build read) only for a file without runs. None for a plain compare.
     */
    public static List<SweepPair> of(Results results) {
        if (results.runs().isEmpty() && results.sweep() != null) {
            return results.sweep();
        }
        return results.swept() ? of(results.runs(), results.skipped()) : List.of();
    }

    /**
     * Of the cells' concurrencies, the one CPU per request is compared at: the nearest to 2000, the lower of two as
     * near.
     */
    static int nearestCpuConcurrency(List<Cell> cells) {
        return cells.stream()
                .map(Cell::concurrency)
                .min(Comparator.comparingInt((Integer c) -> Math.abs(c - CPU_CONCURRENCY))
                        .thenComparingInt(c -> c))
                .orElse(CPU_CONCURRENCY);
    }

    private static SweepPair ofPair(
            List<Cell> cells, List<Cell> remeasured, boolean endsMeasured, List<Results.Skipped> skipped) {
        Cell first = cells.getFirst();
        Cell cpuCell = cpuCell(cells);
        Map<Integer, Cell> again = new LinkedHashMap<>();
        remeasured.forEach(c -> again.put(c.concurrency(), c));
        Map<Integer, Hold> hold = holds(cells, again);
        Cell held = cells.stream()
                .filter(c -> hold.get(c.concurrency()) == Hold.HELD)
                .reduce((a, b) -> b)
                .orElse(null);
        Integer heldAt = held == null ? null : held.concurrency();
        List<Cell> above = cells.stream()
                .filter(c -> heldAt == null || c.concurrency() > heldAt)
                .toList();
        Cell breaking = breaking(above, hold);
        List<SweepPair.Share> band = band(above, hold, again);
        List<Cell> below = cells.stream()
                .filter(c -> heldAt != null && c.concurrency() < heldAt)
                .toList();
        List<String> shortBelow = below.stream()
                .filter(c -> hold.get(c.concurrency()) != Hold.HELD || c.failedRounds() > 0)
                .map(c -> String.format(Locale.ROOT, "%,d (%s)", c.concurrency(), shortfall(c)))
                .toList();
        // below the held end, held in no round: the pair does not break once, so it is non-monotone
        List<Integer> notHeldBelow = below.stream()
                .filter(c -> hold.get(c.concurrency()) == Hold.NOT_HELD)
                .map(Cell::concurrency)
                .toList();
        // where holding first failed: the lowest concurrency above the held end (none above it held in every round)
        Cell firstFailed = above.stream().findFirst().orElse(null);
        LimitFound found = firstFailed != null
                ? limitWhereHoldingFailed(firstFailed, held, again)
                : limitWhereAllHeld(cells.getLast().concurrency(), skipped);
        Limit limit = found.limit();
        Integer notHeldAt = breaking == null ? null : breaking.concurrency();
        // a sweep that measured its ends again but none of this pair's (their runs lost): unconfirmed, not agreeing
        SweepPair.Ends ends =
                breaking != null && (endsMeasured || !remeasured.isEmpty()) ? ends(cells, again, held, breaking) : null;
        Integer breakingPoint =
                limit == Limit.SERVER && heldAt != null && (ends == null || ends.agree()) && notHeldBelow.isEmpty()
                        ? Objects.requireNonNullElse(ReadableNumber.between(heldAt, notHeldAt), heldAt)
                        : null;
        return new SweepPair(
                first.server(),
                first.strategy(),
                breakingPoint,
                heldAt,
                notHeldAt,
                limit,
                found.detail(),
                found.at(),
                shortBelow.isEmpty() ? null : String.join(", ", shortBelow),
                perThousand(cells, ServerCost::heapAfterGcMb),
                perThousand(cells, ServerCost::peakRssMb),
                cpuCell.concurrency(),
                cpuCell.serverCpuMicrosPerRequest(),
                cpuCell.cost(ServerCost::cpuUserMicrosPerRequest),
                cpuCell.cost(ServerCost::cpuSystemMicrosPerRequest),
                ends,
                band.isEmpty() ? null : band,
                notHeldBelow.isEmpty() ? null : notHeldBelow);
    }

    /**
     * The end not held: the first concurrency above the held end that held in no round; else the first above, which
     * held in some rounds only (the pair then has no end that did not hold); null when none lies above.
     */
    private static Cell breaking(List<Cell> above, Map<Integer, Hold> hold) {
        return above.stream()
                .filter(c -> hold.get(c.concurrency()) == Hold.NOT_HELD)
                .findFirst()
                .or(() -> above.stream().findFirst())
                .orElse(null);
    }

    /** Each concurrency's class, all its readings (first and again) pooled. */
    private static Map<Integer, Hold> holds(List<Cell> cells, Map<Integer, Cell> again) {
        Map<Integer, Hold> hold = new LinkedHashMap<>();
        cells.forEach(c -> hold.put(c.concurrency(), hold(pooled(c, again.get(c.concurrency())))));
        return hold;
    }

    /** Above the held end: every concurrency held in some rounds only, between the ends or (noise) above them. */
    private static List<SweepPair.Share> band(List<Cell> above, Map<Integer, Hold> hold, Map<Integer, Cell> again) {
        return above.stream()
                .filter(c -> hold.get(c.concurrency()) == Hold.MIXED)
                .map(c -> pooled(c, again.get(c.concurrency())))
                .map(c -> new SweepPair.Share(c.concurrency(), heldRounds(c), c.rounds()))
                .toList();
    }

    /** The cell CPU per request is compared at ({@link #nearestCpuConcurrency}). */
    private static Cell cpuCell(List<Cell> cells) {
        int cpuConcurrency = nearestCpuConcurrency(cells);
        return cells.stream()
                .filter(c -> c.concurrency() == cpuConcurrency)
                .findFirst()
                .orElseThrow();
    }

    /** A pair's limit, why (with the evidence at both ends), and the concurrency it was read at. */
    private record LimitFound(Limit limit, String detail, Integer at) {}

    /** The limit read where holding first failed, from its rounds not held set against the held end's. */
    private static LimitFound limitWhereHoldingFailed(Cell firstFailed, Cell held, Map<Integer, Cell> again) {
        Cell all = pooled(firstFailed, again.get(firstFailed.concurrency()));
        Cell notHeld = new Cell(
                all.concurrency(),
                all.strategy(),
                all.server(),
                all.engine(),
                all.runs().stream().filter(r -> !roundHeld(r)).toList());
        Cell heldEnd = held == null ? null : pooled(held, again.get(held.concurrency()));
        LimitEvidence.Finding finding = LimitEvidence.limitAt(notHeld, heldEnd);
        String detail = String.format(
                Locale.ROOT,
                "%s: at %,d%s: %s%s",
                finding.because(),
                firstFailed.concurrency(),
                notHeld.rounds() == all.rounds()
                        ? ""
                        : String.format(
                                Locale.ROOT, " (the %d of its %d rounds not held)", notHeld.rounds(), all.rounds()),
                LimitEvidence.evidence(notHeld),
                heldEnd == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; held end %,d: %s",
                                heldEnd.concurrency(),
                                LimitEvidence.evidence(heldEnd)));
        return new LimitFound(finding.limit(), detail, firstFailed.concurrency());
    }

    /** Every concurrency swept held: no limit, or the machine's where the next could not be run. */
    private static LimitFound limitWhereAllHeld(int largest, List<Results.Skipped> skipped) {
        Results.Skipped next = skipped.stream()
                .filter(s -> s.concurrency() > largest)
                .min(Comparator.comparingInt(Results.Skipped::concurrency))
                .orElse(null);
        if (next == null) {
            return new LimitFound(
                    Limit.NONE,
                    String.format(Locale.ROOT, "held at the largest swept concurrency, %,d", largest),
                    null);
        }
        return new LimitFound(
                Limit.MACHINE,
                String.format(Locale.ROOT, "the machine's limit: %,d not run: %s", next.concurrency(), next.reason()),
                next.concurrency());
    }

    /** Both ends as read first and again, and every other concurrency whose two readings disagree. */
    private static SweepPair.Ends ends(List<Cell> cells, Map<Integer, Cell> again, Cell held, Cell breaking) {
        Integer heldAt = held == null ? null : held.concurrency();
        int notHeldAt = breaking.concurrency();
        Cell heldAgain = heldAt == null ? null : again.get(heldAt);
        Cell notHeldAgain = again.get(notHeldAt);
        // every other concurrency read twice and otherwise the second time, wherever it lies: never hidden
        List<SweepPair.Remeasured> disputed = cells.stream()
                .filter(c -> !Objects.equals(c.concurrency(), heldAt) && c.concurrency() != notHeldAt)
                .filter(c -> again.containsKey(c.concurrency()) && opposite(hold(c), hold(again.get(c.concurrency()))))
                .map(c -> new SweepPair.Remeasured(reading(c), reading(again.get(c.concurrency()))))
                .toList();
        return new SweepPair.Ends(
                held == null ? null : reading(held),
                heldAgain == null ? null : reading(heldAgain),
                reading(breaking),
                notHeldAgain == null ? null : reading(notHeldAgain),
                disputed.isEmpty() ? null : disputed);
    }

    /** One concurrency's first reading and its reading again as one cell of all their rounds. */
    private static Cell pooled(Cell first, Cell again) {
        if (again == null) {
            return first;
        }
        List<Run> runs = new ArrayList<>(first.runs());
        runs.addAll(again.runs());
        return new Cell(first.concurrency(), first.strategy(), first.server(), first.engine(), runs);
    }

    /**
     * Whether a concurrency held: in every one of its rounds ({@link Hold}), a round holding when it reached
     * {@value #HOLDS} of the bound without a failed request. One rule for the grid, the narrowing in, the ends and the
     * verdict.
     */
    public static boolean holds(Cell cell) {
        return hold(cell) == Hold.HELD;
    }

    /** Its rounds' class: held in all, in none, or in some and not others. */
    public static Hold hold(Cell cell) {
        return Hold.of(heldRounds(cell), cell.rounds());
    }

    /** Rounds that reached {@value #HOLDS} of the bound without a failed request. */
    static long heldRounds(Cell cell) {
        return cell.runs().stream().filter(SweepPairs::roundHeld).count();
    }

    static boolean roundHeld(Run run) {
        Double ratio = run.load().ratioToBound();
        return ratio != null && ratio >= HOLDS && run.load().failed().total() == 0;
    }

    /** One reading held and the other did not, in every round: read otherwise, not just noisier. */
    private static boolean opposite(Hold a, Hold b) {
        return a != b && a != Hold.MIXED && b != Hold.MIXED;
    }

    private static String shortfall(Cell cell) {
        return String.format(
                Locale.ROOT,
                "%s, %,d failed%s",
                LimitEvidence.ratio(cell),
                cell.failed(),
                cell.failedRounds() == 0
                        ? ""
                        : String.format(Locale.ROOT, " in %d/%d rounds", cell.failedRounds(), cell.rounds()));
    }

    /** The slope of the cells' medians against concurrency, per 1,000 connections; null with fewer than two points. */
    private static Double perThousand(List<Cell> cells, Function<ServerCost, Double> figure) {
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
