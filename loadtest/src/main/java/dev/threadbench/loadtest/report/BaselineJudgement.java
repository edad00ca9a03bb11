package dev.threadbench.loadtest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A run set against a saved one ({@code --baseline}): each cell that both ran (same server, strategy, concurrency, engine
 * and open-model rate) figure by figure, and with two sweeps each pair's breaking point. A figure's difference is named
 * only when the rounds of both runs show it ({@link PermutationTest}, p <= 0.05) and the medians are at least
 * {@link #NAMEABLE_PERCENT} % apart; otherwise "no difference", or "too few rounds to judge" when the rounds could not show
 * one whatever their values. Written to results.json as its {@code baseline} section.
 *
 * @param path           the baseline's results.json
 * @param baselineDate   when the baseline ran
 * @param method         how differences were judged, in words
 * @param environment    what differs between the two runs' fingerprints ({@link Fingerprint}); empty when nothing does
 * @param cells          the matching cells, in this run's table order
 * @param onlyInBaseline cells the baseline ran and this run did not, as labels
 * @param onlyInThisRun  cells this run ran and the baseline did not
 * @param breakingPoints with a sweep in both: each pair's breaking point in the baseline and in this run
 */
public record BaselineJudgement(String path, String baselineDate, String method, List<String> environment, List<CellDelta> cells,
                                List<String> onlyInBaseline, List<String> onlyInThisRun, List<BreakingPoint> breakingPoints) {

    /** Below this the medians' difference is not named even when significant: as in the two servers' verdict. */
    public static final double NAMEABLE_PERCENT = Verdict.NAMEABLE_PERCENT;

    public static final String METHOD = "exact two-sided permutation test over the rounds (Mann-Whitney rank sums), p <= 0.05,"
            + " medians at least 1 % apart";

    public enum Outcome {
        BETTER("better"), WORSE("worse"), NO_DIFFERENCE("no difference"), TOO_FEW_ROUNDS("too few rounds to judge"),
        NOT_JUDGED("not judged"), NOT_MEASURED("not measured");

        private final String words;

        Outcome(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }

        /** Better or worse: a difference the rounds show. */
        public boolean significant() {
            return this == BETTER || this == WORSE;
        }
    }

    /**
     * One figure in the baseline and in this run. {@code change}: (this - baseline) / baseline of the medians; {@code p}: the
     * permutation test's, null when it could not run; {@code note}: why a figure was not judged.
     */
    public record FigureDelta(String figure, Spread baseline, Spread current, Double change, Double p, Outcome outcome, String note) {

        /** "req/s 9,990 (9,950-10,010) vs 9,985 baseline: no difference (+0.1 %, p = 0.49)". */
        public String describe() {
            String format = Figure.of(figure).format;
            String values = figure + " " + Spread.format(current, format) + " vs " + Spread.format(baseline, format) + " baseline: ";
            String numbers = change == null ? "" : String.format(Locale.ROOT, "%+.1f %%", 100 * change)
                    + (p == null ? "" : String.format(Locale.ROOT, ", p = %.3f", p));
            return switch (outcome) {
                case BETTER, WORSE, NO_DIFFERENCE -> values + outcome.words() + " (" + numbers + ")";
                case TOO_FEW_ROUNDS, NOT_JUDGED -> values + outcome.words() + (note == null ? "" : ": " + note)
                        + (numbers.isEmpty() ? "" : " (" + numbers + ")");
                case NOT_MEASURED -> figure + ": not measured in " + note;
            };
        }
    }

    /** One cell in both runs. */
    public record CellDelta(String server, String strategy, int concurrency, String engine, Double targetRate, int baselineRounds,
                            int rounds, List<FigureDelta> figures) {

        public String label() {
            return "C=" + concurrency + (targetRate == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", targetRate)) + " " + server
                    + "/" + strategy;
        }

        public FigureDelta figure(String name) {
            return figures.stream().filter(f -> f.figure().equals(name)).findFirst().orElse(null);
        }
    }

    /**
     * A pair's breaking point in both sweeps, in words, and whether it moved: only when both are the server's own and the
     * intervals they were narrowed to (last held, first not held) do not overlap, since the point is known only that far.
     */
    public record BreakingPoint(String server, String strategy, String baseline, String current, String verdict) {}

    /** The figures judged: their name, how they read, which way is better, and each round's value. */
    public enum Figure {
        REQUESTS_PER_SECOND("req/s", "%,.0f", true, Results.Run::requestsPerSecond),
        OF_BOUND("of bound", "%.3f", true, Results.Run::ratioToBound),
        P50("p50 ms", "%,.1f", false, r -> r.latencyMs().p50()),
        P99("p99 ms", "%,.1f", false, r -> r.latencyMs().p99()),
        P999("p99.9 ms", "%,.1f", false, r -> r.latencyMs().p999()),
        SERVER_CPU("srv us/req", "%.1f", false, Cell::serverCpuMicrosPerRequest),
        RSS("RSS MB", "%,.0f", false, Results.Run::serverPeakRssMb);

        public final String name;
        final String format;
        final boolean higherIsBetter;
        final Function<Results.Run, Double> value;

        Figure(String name, String format, boolean higherIsBetter, Function<Results.Run, Double> value) {
            this.name = name;
            this.format = format;
            this.higherIsBetter = higherIsBetter;
            this.value = value;
        }

        static Figure of(String name) {
            for (Figure figure : values()) {
                if (figure.name.equals(name)) {
                    return figure;
                }
            }
            throw new IllegalArgumentException(name);
        }
    }

    public BaselineJudgement {
        environment = List.copyOf(environment);
        cells = List.copyOf(cells);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInThisRun = List.copyOf(onlyInThisRun);
        breakingPoints = List.copyOf(breakingPoints);
    }

    /** {@code current} judged against {@code baseline}, read from {@code path}. */
    public static BaselineJudgement of(Results baseline, Results current, String path) {
        Cells cells = cells(Cell.of(baseline.runs()), Cell.of(current.runs()), UnaryOperator.identity());
        return new BaselineJudgement(path, baseline.environment().date(), METHOD,
                Fingerprint.differences(baseline, current).stream().map(Fingerprint.Difference::describe).toList(), cells.deltas,
                cells.onlyInBaseline, cells.onlyInThisRun, breakingPoints(baseline, current));
    }

    /**
     * A run with servers built against other framework versions ({@code --servers undertow@2.3.27.Final,undertow}): each
     * server's own cells judged against each of its variants' as against a baseline, the rounds alternated in one run.
     */
    public static List<BaselineJudgement> versions(Results results) {
        List<Cell> all = Cell.of(results.runs());
        List<String> servers = all.stream().map(Cell::server).distinct().toList();
        List<BaselineJudgement> judgements = new ArrayList<>();
        for (String variant : servers) {
            int at = variant.indexOf('@');
            String own = at < 0 ? null : variant.substring(0, at);
            if (own == null || !servers.contains(own)) {
                continue;
            }
            Cells cells = cells(all.stream().filter(c -> c.server().equals(variant)).toList(),
                    all.stream().filter(c -> c.server().equals(own)).toList(), server -> server.equals(variant) ? own : server);
            String version = results.environment().frameworks() == null ? null : results.environment().frameworks().get(own);
            judgements.add(new BaselineJudgement(variant + " in this run (" + own + (version == null ? "" : " is " + version)
                    + ", rounds alternated)", results.environment().date(), METHOD, List.of(), cells.deltas, List.of(), List.of(),
                    List.of()));
        }
        return judgements;
    }

    private record Cells(List<CellDelta> deltas, List<String> onlyInBaseline, List<String> onlyInThisRun) {}

    /** The cells of {@code after} with their match in {@code before}, whose server names {@code rename} maps to after's. */
    private static Cells cells(List<Cell> before, List<Cell> after, UnaryOperator<String> rename) {
        List<CellDelta> deltas = new ArrayList<>();
        List<String> onlyInThisRun = new ArrayList<>();
        for (Cell cell : after) {
            Cell match = before.stream().filter(b -> sameCell(b, cell, rename)).findFirst().orElse(null);
            if (match == null) {
                onlyInThisRun.add(label(cell));
            } else {
                deltas.add(new CellDelta(cell.server(), cell.strategy(), cell.concurrency(), cell.engine(), cell.targetRate(),
                        match.rounds(), cell.rounds(), figures(match, cell)));
            }
        }
        List<String> onlyInBaseline = before.stream().filter(b -> after.stream().noneMatch(a -> sameCell(b, a, rename)))
                .map(BaselineJudgement::label).toList();
        return new Cells(deltas, onlyInBaseline, onlyInThisRun);
    }

    private static boolean sameCell(Cell before, Cell after, UnaryOperator<String> rename) {
        return before.concurrency() == after.concurrency() && Objects.equals(before.strategy(), after.strategy())
                && rename.apply(before.server()).equals(after.server()) && Objects.equals(before.engine(), after.engine())
                && Objects.equals(before.targetRate(), after.targetRate());
    }

    private static String label(Cell cell) {
        return "C=" + cell.concurrency() + (cell.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", cell.targetRate()))
                + " " + cell.label() + " (" + cell.engine() + ")";
    }

    private static List<FigureDelta> figures(Cell baseline, Cell current) {
        List<FigureDelta> figures = new ArrayList<>();
        for (Figure figure : Figure.values()) {
            figures.add(judge(figure, baseline, current));
        }
        return figures;
    }

    static FigureDelta judge(Figure figure, Cell baselineCell, Cell currentCell) {
        double[] b = values(baselineCell, figure);
        double[] c = values(currentCell, figure);
        Spread before = baselineCell.spread(figure.value);
        Spread after = currentCell.spread(figure.value);
        if (b.length == 0 || c.length == 0) {
            return new FigureDelta(figure.name, before, after, null, null, Outcome.NOT_MEASURED,
                    b.length == 0 && c.length == 0 ? "either run" : b.length == 0 ? "the baseline" : "this run");
        }
        Double change = before.median() == 0 ? null : (after.median() - before.median()) / Math.abs(before.median());
        if (figure == Figure.REQUESTS_PER_SECOND || figure == Figure.OF_BOUND) {
            String limit = throughputNotJudged(baselineCell, "the baseline");
            limit = limit != null ? limit : throughputNotJudged(currentCell, "this run");
            if (limit != null) {
                return new FigureDelta(figure.name, before, after, change, null, Outcome.NOT_JUDGED, limit);
            }
        }
        if (!PermutationTest.canJudge(b.length, c.length)) {
            return new FigureDelta(figure.name, before, after, change, null, Outcome.TOO_FEW_ROUNDS, String.format(Locale.ROOT,
                    "%d + %d rounds can give p no lower than %.3f (4 + 4 rounds can)", b.length, c.length,
                    PermutationTest.leastP(b.length, c.length)));
        }
        double p = PermutationTest.pValue(b, c);
        boolean nameable = change != null ? Math.abs(change) * 100 >= NAMEABLE_PERCENT : after.median() != before.median();
        Outcome outcome = p > PermutationTest.ALPHA || !nameable ? Outcome.NO_DIFFERENCE
                : (after.median() > before.median()) == figure.higherIsBetter ? Outcome.BETTER : Outcome.WORSE;
        return new FigureDelta(figure.name, before, after, change, p, outcome, null);
    }

    /** Why throughput cannot be judged in a cell: the generator was the limit, or a round read above the bound. */
    private static String throughputNotJudged(Cell cell, String run) {
        if (cell.generatorBoundRounds() > 0) {
            return String.format(Locale.ROOT, "generator-bound in %d/%d rounds of %s", cell.generatorBoundRounds(), cell.rounds(), run);
        }
        if (cell.aboveBoundRounds() > 0) {
            return String.format(Locale.ROOT, "above the bound in %d/%d rounds of %s (a measurement artefact)", cell.aboveBoundRounds(),
                    cell.rounds(), run);
        }
        return null;
    }

    private static double[] values(Cell cell, Figure figure) {
        return cell.runs().stream().map(figure.value).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
    }

    private static List<BreakingPoint> breakingPoints(Results baseline, Results current) {
        if (baseline.settings() == null || !baseline.settings().swept() || current.settings() == null || !current.settings().swept()) {
            return List.of();
        }
        List<SweepPair> before = SweepPair.of(baseline);
        List<BreakingPoint> points = new ArrayList<>();
        for (SweepPair now : SweepPair.of(current)) {
            before.stream().filter(b -> b.server().equals(now.server()) && Objects.equals(b.strategy(), now.strategy())).findFirst()
                    .ifPresent(b -> points.add(new BreakingPoint(now.server(), now.strategy(), b.reading(), now.reading(), moved(b, now))));
        }
        return points;
    }

    static String moved(SweepPair baseline, SweepPair current) {
        if (!baseline.serverLimited() || !current.serverLimited() || baseline.breakingPoint() == null || current.breakingPoint() == null) {
            return "not judged: not the server's own breaking point in both";
        }
        if (current.heldAt() >= baseline.notHeldAt()) {
            return "better: held where the baseline did not";
        }
        if (baseline.heldAt() >= current.notHeldAt()) {
            return "worse: not held where the baseline held";
        }
        return "no difference (the intervals overlap)";
    }

    /** The console's lines: the method, what differs in the environment, each cell, the breaking points, cells in one run only. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("against the baseline " + path + " (" + baselineDate + "); " + method + ":");
        if (environment.isEmpty()) {
            lines.add("  environment: the same fingerprint");
        } else {
            lines.add("  environment differs: " + String.join("; ", environment));
        }
        for (CellDelta cell : cells) {
            lines.add(String.format(Locale.ROOT, "  %s (%d rounds, baseline %d):", cell.label(), cell.rounds(), cell.baselineRounds()));
            cell.figures().forEach(f -> lines.add("    " + f.describe()));
        }
        breakingPoints.forEach(p -> lines.add("  breaking point " + p.server() + "/" + p.strategy() + ": " + p.current() + " vs "
                + p.baseline() + " baseline: " + p.verdict()));
        if (!onlyInBaseline.isEmpty()) {
            lines.add("  only in the baseline: " + String.join("; ", onlyInBaseline));
        }
        if (!onlyInThisRun.isEmpty()) {
            lines.add("  not in the baseline: " + String.join("; ", onlyInThisRun));
        }
        if (cells.isEmpty()) {
            lines.add("  no cell of this run is in the baseline: nothing judged");
        }
        return lines;
    }
}
