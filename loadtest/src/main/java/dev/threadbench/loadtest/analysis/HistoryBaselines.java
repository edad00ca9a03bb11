package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A run judged against the earlier runs of a history ({@code --baseline DIR}): the rounds of two separate runs are not
 * exchangeable (a shift of the machine between runs sets them apart completely, and a rank test on them names it as
 * a difference of the code), so each figure of each cell is set against the spread of the earlier runs' medians, which
 * holds that shift. With k earlier runs (at least {@link #MIN_RUNS}), mean m and standard deviation s of their
 * medians, this run's median x is one more draw if nothing changed: t = (x - m) / (s sqrt(1 + 1/k)) with k - 1
 * degrees of freedom (the prediction interval of a new run), two-sided p, Holm-corrected over every figure and cell
 * ({@link Holm}); its 95 % bounds are what a relative --fail-if limit must be past.
 */
public final class HistoryBaselines {

    /** The fewest earlier runs a between-run spread is estimated from. */
    public static final int MIN_RUNS = 3;

    public static final String METHOD = "this run's median against the earlier runs' medians (t prediction interval"
            + " of a new run, at least " + MIN_RUNS + " runs), p Holm-corrected over every figure and cell, medians"
            + " at least 1 % apart; a relative limit breaches only when the change's 95 % bound is past it";

    private HistoryBaselines() {}

    /** {@code current} judged against {@code history} (oldest first; a run of the same date as current is left out). */
    public static BaselineJudgement of(List<Results> history, Results current, String path) {
        List<Results> earlier = history.stream()
                .filter(r -> !Objects.equals(
                        r.environment().date(), current.environment().date()))
                .toList();
        Results newest = earlier.isEmpty() ? history.getLast() : earlier.getLast();
        BaselineJudgement shape = Baselines.of(newest, current, path);
        List<List<Cell>> earlierCells =
                earlier.stream().map(r -> Cell.of(r.runs())).toList();
        List<BaselineJudgement.CellDelta> deltas =
                corrected(shape, judged(shape, earlierCells, Cell.of(current.runs())));
        return new BaselineJudgement(
                path + " (" + earlier.size() + " earlier run" + (earlier.size() == 1 ? ")" : "s)"),
                shape.baselineDate(),
                METHOD,
                shape.environment(),
                deltas,
                shape.onlyInBaseline(),
                shape.onlyInThisRun(),
                shape.breakingPoints(),
                shape.sweepsAgree(),
                shape.pace());
    }

    /** Every figure of every cell of {@code shape}, this run's cell against its earlier runs', before Holm. */
    private static List<Judged> judged(BaselineJudgement shape, List<List<Cell>> earlierCells, List<Cell> cells) {
        List<Judged> judged = new ArrayList<>();
        for (BaselineJudgement.CellDelta delta : shape.cells()) {
            Cell cell = cells.stream()
                    .filter(c -> c.server().equals(delta.server())
                            && Objects.equals(c.strategy(), delta.strategy())
                            && c.concurrency() == delta.concurrency()
                            && Objects.equals(c.engine(), delta.engine())
                            && Objects.equals(c.targetRate(), delta.targetRate()))
                    .findFirst()
                    .orElseThrow();
            List<Cell> matches = earlierCells.stream()
                    .map(list -> list.stream()
                            .filter(b -> Baselines.sameCell(b, cell, s -> s))
                            .findFirst()
                            .orElse(null))
                    .filter(Objects::nonNull)
                    .toList();
            for (BaselineJudgement.Figure figure : BaselineJudgement.Figure.values()) {
                judged.add(judge(figure, matches, cell));
            }
        }
        return judged;
    }

    /** The cells again, each tested figure with its p adjusted by Holm over all of them. */
    private static List<BaselineJudgement.CellDelta> corrected(BaselineJudgement shape, List<Judged> judged) {
        double[] adjusted = Holm.adjust(
                judged.stream().filter(j -> j.p != null).mapToDouble(j -> j.p).toArray());
        List<BaselineJudgement.CellDelta> deltas = new ArrayList<>();
        int next = 0;
        int index = 0;
        for (BaselineJudgement.CellDelta delta : shape.cells()) {
            List<BaselineJudgement.FigureDelta> figures = new ArrayList<>();
            for (int f = 0; f < BaselineJudgement.Figure.values().length; f++) {
                Judged j = judged.get(index++);
                figures.add(j.p == null ? j.delta : j.withAdjusted(adjusted[next++]));
            }
            deltas.add(new BaselineJudgement.CellDelta(
                    delta.server(),
                    delta.strategy(),
                    delta.concurrency(),
                    delta.engine(),
                    delta.targetRate(),
                    delta.baselineRounds(),
                    delta.rounds(),
                    figures));
        }
        return deltas;
    }

    /** A figure before Holm: the delta, and its raw p when it was tested. */
    private record Judged(BaselineJudgement.FigureDelta delta, Double p, BaselineJudgement.Figure figure) {

        BaselineJudgement.FigureDelta withAdjusted(double adjusted) {
            boolean nameable = Math.abs(delta.change()) * 100 >= Baselines.NAMEABLE_PERCENT;
            BaselineJudgement.Outcome outcome = adjusted > RankSum.ALPHA || !nameable
                    ? BaselineJudgement.Outcome.NO_DIFFERENCE
                    : (delta.change() > 0) == figure.higherIsBetter
                            ? BaselineJudgement.Outcome.BETTER
                            : BaselineJudgement.Outcome.WORSE;
            return new BaselineJudgement.FigureDelta(
                    delta.figure(),
                    delta.baseline(),
                    delta.current(),
                    delta.change(),
                    adjusted,
                    outcome,
                    null,
                    delta.changeLow(),
                    delta.changeHigh());
        }
    }

    private static Judged judge(BaselineJudgement.Figure figure, List<Cell> earlier, Cell current) {
        Spread now = current.spread(Baselines.value(figure));
        List<Double> medians = earlier.stream()
                .map(c -> c.spread(Baselines.value(figure)))
                .filter(Objects::nonNull)
                .map(Spread::median)
                .toList();
        Spread before = Spread.of(medians);
        if (now == null || before == null && !earlier.isEmpty()) {
            return untested(
                    figure,
                    before,
                    now,
                    null,
                    BaselineJudgement.Outcome.NOT_MEASURED,
                    now == null ? "this run" : "the baseline");
        }
        int k = medians.size();
        double mean =
                medians.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        // no earlier run of this cell (a run judged against a history of itself alone): too few runs, below
        Double change = k == 0 || mean == 0 ? null : (now.median() - mean) / Math.abs(mean);
        if (figure == BaselineJudgement.Figure.REQUESTS_PER_SECOND || figure == BaselineJudgement.Figure.OF_BOUND) {
            String limit = Baselines.throughputNotJudged(current, "this run");
            if (limit != null) {
                return untested(figure, before, now, change, BaselineJudgement.Outcome.NOT_JUDGED, limit);
            }
        }
        if (k < MIN_RUNS || change == null) {
            return untested(
                    figure,
                    before,
                    now,
                    change,
                    BaselineJudgement.Outcome.TOO_FEW_RUNS,
                    String.format(
                            Locale.ROOT,
                            "%d earlier run%s of this cell; the spread between runs needs %d",
                            k,
                            k == 1 ? "" : "s",
                            MIN_RUNS));
        }
        Prediction prediction =
                Prediction.of(medians.stream().mapToDouble(Double::doubleValue).toArray(), now.median());
        double p = prediction.p();
        double low = prediction.low() / Math.abs(mean);
        double high = prediction.high() / Math.abs(mean);
        return new Judged(
                new BaselineJudgement.FigureDelta(
                        figure, before, now, change, p, BaselineJudgement.Outcome.NO_DIFFERENCE, null, low, high),
                p,
                figure);
    }

    private static Judged untested(
            BaselineJudgement.Figure figure,
            Spread before,
            Spread now,
            Double change,
            BaselineJudgement.Outcome outcome,
            String why) {
        return new Judged(
                new BaselineJudgement.FigureDelta(figure, before, now, change, null, outcome, why), null, figure);
    }

    /**
     * One new run's median against {@code earlier} runs' medians (at least 2): its two-sided p and the 95 % bounds of
     * its distance from their mean, from the t prediction interval of a new run.
     */
    record Prediction(double p, double low, double high) {

        static Prediction of(double[] earlier, double current) {
            int k = earlier.length;
            double mean = Arrays.stream(earlier).average().orElseThrow();
            double variance =
                    Arrays.stream(earlier).map(m -> (m - mean) * (m - mean)).sum() / (k - 1);
            double scale = Math.sqrt(variance * (1 + 1.0 / k));
            double gap = current - mean;
            if (scale == 0) {
                return new Prediction(gap == 0 ? 1 : 0, gap, gap);
            }
            double bound = StudentT.quantile(0.975, k - 1) * scale;
            return new Prediction(StudentT.twoSidedP(gap / scale, k - 1), gap - bound, gap + bound);
        }
    }
}
