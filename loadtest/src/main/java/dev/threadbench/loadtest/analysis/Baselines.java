package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A run judged against a saved one ({@code --baseline}), or a server against its variants built on other framework
 * versions: each figure of each cell both ran by a permutation test over their rounds ({@link RankSum}), each
 * pair's breaking point by its interval ({@link BaselineJudgement}).
 */
public final class Baselines {

    /** Below this the medians' difference is not named even when significant: as in the two servers' verdict. */
    public static final double NAMEABLE_PERCENT = Verdict.NAMEABLE_PERCENT;

    public static final String METHOD =
            "exact two-sided permutation test over the rounds (Mann-Whitney rank sums), p <= 0.05,"
                    + " medians at least 1 % apart";

    private Baselines() {}

    /** A figure's value in one run. */
    static Function<Run, Double> value(BaselineJudgement.Figure figure) {
        return switch (figure) {
            case REQUESTS_PER_SECOND -> r -> r.load().requestsPerSecond();
            case OF_BOUND -> r -> r.load().ratioToBound();
            case P50 -> r -> r.latency().latencyMs().p50();
            case P99 -> r -> r.latency().latencyMs().p99();
            case P999 -> r -> r.latency().latencyMs().p999();
            case SERVER_CPU -> Cell::serverCpuMicrosPerRequest;
            case RSS -> r -> r.serverSide().peakRssMb();
        };
    }

    /** {@code current} judged against {@code baseline}, read from {@code path}. */
    public static BaselineJudgement of(Results baseline, Results current, String path) {
        boolean sweeps = baseline.swept() && current.swept();
        List<SweepAgreement.Matched> pairs =
                sweeps ? SweepAgreement.matched(SweepPairs.of(baseline), SweepPairs.of(current)) : List.of();
        Cells cells = cells(Cell.of(baseline.runs()), Cell.of(current.runs()), UnaryOperator.identity());
        return new BaselineJudgement(
                path,
                baseline.environment().date(),
                METHOD,
                Fingerprint.differences(baseline, current).stream()
                        .map(Fingerprint.Difference::describe)
                        .toList(),
                cells.deltas,
                cells.onlyInBaseline,
                cells.onlyInThisRun,
                breakingPoints(pairs),
                sweeps ? SweepAgreement.agree(pairs) : null,
                sweeps
                        ? SweepAgreement.pace(
                                pairs, Fingerprint.oneBuild(baseline.environment(), current.environment()))
                        : null);
    }

    /**
     * A run with servers built against other framework versions ({@code --servers undertow@2.3.27.Final,undertow}):
     * each server's own cells judged against each of its variants' as against a baseline, the rounds alternated in one
     * run.
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
            Cells cells = cells(
                    all.stream().filter(c -> c.server().equals(variant)).toList(),
                    all.stream().filter(c -> c.server().equals(own)).toList(),
                    server -> server.equals(variant) ? own : server);
            String version = results.environment().frameworks() == null
                    ? null
                    : results.environment().frameworks().get(own);
            judgements.add(new BaselineJudgement(
                    variant + " in this run (" + own + (version == null ? "" : " is " + version)
                            + ", rounds alternated)",
                    results.environment().date(),
                    METHOD,
                    List.of(),
                    cells.deltas,
                    List.of(),
                    List.of(),
                    List.of(),
                    null,
                    null));
        }
        return judgements;
    }

    private record Cells(
            List<BaselineJudgement.CellDelta> deltas, List<String> onlyInBaseline, List<String> onlyInThisRun) {}

    /**
     * The cells of {@code after} with their match in {@code before}, whose server names {@code rename} maps to after's.
     */
    private static Cells cells(List<Cell> before, List<Cell> after, UnaryOperator<String> rename) {
        List<BaselineJudgement.CellDelta> deltas = new ArrayList<>();
        List<String> onlyInThisRun = new ArrayList<>();
        for (Cell cell : after) {
            Cell match = before.stream()
                    .filter(b -> sameCell(b, cell, rename))
                    .findFirst()
                    .orElse(null);
            if (match == null) {
                onlyInThisRun.add(label(cell));
            } else {
                deltas.add(new BaselineJudgement.CellDelta(
                        cell.server(),
                        cell.strategy(),
                        cell.concurrency(),
                        cell.engine(),
                        cell.targetRate(),
                        match.rounds(),
                        cell.rounds(),
                        figures(match, cell)));
            }
        }
        List<String> onlyInBaseline = before.stream()
                .filter(b -> after.stream().noneMatch(a -> sameCell(b, a, rename)))
                .map(Baselines::label)
                .toList();
        return new Cells(deltas, onlyInBaseline, onlyInThisRun);
    }

    static boolean sameCell(Cell before, Cell after, UnaryOperator<String> rename) {
        return before.concurrency() == after.concurrency()
                && Objects.equals(before.strategy(), after.strategy())
                && rename.apply(before.server()).equals(after.server())
                && Objects.equals(before.engine(), after.engine())
                && Objects.equals(before.targetRate(), after.targetRate());
    }

    private static String label(Cell cell) {
        return "C=" + cell.concurrency()
                + (cell.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", cell.targetRate())) + " "
                + cell.label() + " (" + cell.engine() + ")";
    }

    private static List<BaselineJudgement.FigureDelta> figures(Cell baseline, Cell current) {
        List<BaselineJudgement.FigureDelta> figures = new ArrayList<>();
        for (BaselineJudgement.Figure figure : BaselineJudgement.Figure.values()) {
            figures.add(judge(figure, baseline, current));
        }
        return figures;
    }

    static BaselineJudgement.FigureDelta judge(BaselineJudgement.Figure figure, Cell baselineCell, Cell currentCell) {
        double[] b = values(baselineCell, figure);
        double[] c = values(currentCell, figure);
        Spread before = baselineCell.spread(value(figure));
        Spread after = currentCell.spread(value(figure));
        if (b.length == 0 || c.length == 0) {
            return new BaselineJudgement.FigureDelta(
                    figure,
                    before,
                    after,
                    null,
                    null,
                    BaselineJudgement.Outcome.NOT_MEASURED,
                    b.length == 0 && c.length == 0 ? "either run" : b.length == 0 ? "the baseline" : "this run");
        }
        Double change = before.median() == 0 ? null : (after.median() - before.median()) / Math.abs(before.median());
        if (figure == BaselineJudgement.Figure.REQUESTS_PER_SECOND || figure == BaselineJudgement.Figure.OF_BOUND) {
            String limit = throughputNotJudged(baselineCell, "the baseline");
            limit = limit != null ? limit : throughputNotJudged(currentCell, "this run");
            if (limit != null) {
                return new BaselineJudgement.FigureDelta(
                        figure, before, after, change, null, BaselineJudgement.Outcome.NOT_JUDGED, limit);
            }
        }
        if (!RankSum.canJudge(b.length, c.length)) {
            return new BaselineJudgement.FigureDelta(
                    figure,
                    before,
                    after,
                    change,
                    null,
                    BaselineJudgement.Outcome.TOO_FEW_ROUNDS,
                    String.format(
                            Locale.ROOT,
                            "%d + %d rounds can give p no lower than %.3f (4 + 4 rounds can)",
                            b.length,
                            c.length,
                            RankSum.leastP(b.length, c.length)));
        }
        double p = RankSum.pValue(b, c);
        boolean nameable =
                change != null ? Math.abs(change) * 100 >= NAMEABLE_PERCENT : after.median() != before.median();
        BaselineJudgement.Outcome outcome = p > RankSum.ALPHA || !nameable
                ? BaselineJudgement.Outcome.NO_DIFFERENCE
                : (after.median() > before.median()) == figure.higherIsBetter
                        ? BaselineJudgement.Outcome.BETTER
                        : BaselineJudgement.Outcome.WORSE;
        return new BaselineJudgement.FigureDelta(figure, before, after, change, p, outcome, null);
    }

    /** Why throughput cannot be judged in a cell: the generator was the limit, or a round read above the bound. */
    static String throughputNotJudged(Cell cell, String run) {
        if (cell.generatorBoundRounds() > 0) {
            return String.format(
                    Locale.ROOT,
                    "generator-bound in %d/%d rounds of %s",
                    cell.generatorBoundRounds(),
                    cell.rounds(),
                    run);
        }
        if (cell.aboveBoundRounds() > 0) {
            return String.format(
                    Locale.ROOT,
                    "above the bound in %d/%d rounds of %s (a measurement artefact)",
                    cell.aboveBoundRounds(),
                    cell.rounds(),
                    run);
        }
        return null;
    }

    private static double[] values(Cell cell, BaselineJudgement.Figure figure) {
        return cell.runs().stream()
                .map(value(figure))
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    private static List<BaselineJudgement.BreakingPoint> breakingPoints(List<SweepAgreement.Matched> pairs) {
        return pairs.stream()
                .map(p -> new BaselineJudgement.BreakingPoint(
                        p.now().server(),
                        p.now().strategy(),
                        p.before().reading(),
                        p.now().reading(),
                        moved(p.before(), p.now())))
                .toList();
    }

    static String moved(SweepPair baseline, SweepPair current) {
        if (!baseline.serverLimited()
                || !current.serverLimited()
                || baseline.breakingPoint() == null
                || current.breakingPoint() == null) {
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
}
