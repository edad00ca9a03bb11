package dev.threadbench.loadtest.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run set against a saved one ({@code --baseline}): each cell that both ran (same server, strategy, concurrency,
 * engine and open-model rate) figure by figure, and with two sweeps each pair's breaking point. A figure's difference
 * is named only when the rounds of both runs show it (a permutation test, p <= 0.05) and the medians are at least 1 %
 * apart; otherwise "no difference", or "too few rounds to judge" when the rounds could not show one whatever their
 * values. Written to results.json as its {@code baseline} section.
 *
 * @param path           the baseline's results.json
 * @param baselineDate   when the baseline ran
 * @param method         how differences were judged, in words
 * @param environment    what differs between the two runs' fingerprints (the fingerprint); empty when nothing does
 * @param cells          the matching cells, in this run's table order
 * @param onlyInBaseline cells the baseline ran and this run did not, as labels
 * @param onlyInThisRun  cells this run ran and the baseline did not
 * @param breakingPoints with a sweep in both: each pair's breaking point in the baseline and in this run
 * @param sweepsAgree    with a sweep in both: whether they repeat each other, every pair's intervals overlapping and
 *                       pairs whose intervals are apart in the same order in both, in words; null otherwise (and in
 *                       older files)
 * @param pace           with a sweep in both: each pair's CPU per request where the sweeps compare it, this one's
 *                       against the baseline's, and what that says of the machine, in words; null otherwise
 */
public record BaselineJudgement(
        String path,
        String baselineDate,
        String method,
        List<String> environment,
        List<CellDelta> cells,
        List<String> onlyInBaseline,
        List<String> onlyInThisRun,
        List<BreakingPoint> breakingPoints,
        String sweepsAgree,
        String pace) {

    public enum Outcome {
        BETTER("better"),
        WORSE("worse"),
        NO_DIFFERENCE("no difference"),
        TOO_FEW_ROUNDS("too few rounds to judge"),
        TOO_FEW_RUNS("too few runs to judge"),
        NOT_JUDGED("not judged"),
        NOT_MEASURED("not measured");

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
     * One figure in the baseline and in this run. {@code change}: (this - baseline) / baseline of the medians;
     * {@code p}: the test's, null when it could not run; {@code note}: why a figure was not judged;
     * {@code changeLow}, {@code changeHigh}: against a history of runs, the 95 % bounds of the change, which a
     * relative --fail-if limit must be past to breach; null otherwise (and in older files).
     */
    public record FigureDelta(
            Figure figure,
            Spread baseline,
            Spread current,
            Double change,
            Double p,
            Outcome outcome,
            String note,
            Double changeLow,
            Double changeHigh) {

        public FigureDelta(
                Figure figure, Spread baseline, Spread current, Double change, Double p, Outcome outcome, String note) {
            this(figure, baseline, current, change, p, outcome, note, null, null);
        }

        /** "req/s 9,990 (9,950-10,010) vs 9,985 baseline: no difference (+0.1 %, p = 0.49)". */
        public String describe() {
            String format = figure.format;
            String values = figure.name + " " + Spread.format(current, format) + " vs "
                    + Spread.format(baseline, format) + " baseline: ";
            String numbers = change == null
                    ? ""
                    : String.format(Locale.ROOT, "%+.1f %%", 100 * change)
                            + (changeLow == null || changeHigh == null
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            ", 95 %% bounds %+.1f %% to %+.1f %%",
                                            100 * changeLow,
                                            100 * changeHigh))
                            + (p == null ? "" : String.format(Locale.ROOT, ", p = %.3f", p));
            return switch (outcome) {
                case BETTER, WORSE, NO_DIFFERENCE -> values + outcome.words() + " (" + numbers + ")";
                case TOO_FEW_ROUNDS, TOO_FEW_RUNS, NOT_JUDGED ->
                    values
                            + outcome.words()
                            + (note == null ? "" : ": " + note)
                            + (numbers.isEmpty() ? "" : " (" + numbers + ")");
                case NOT_MEASURED -> figure.name + ": not measured in " + note;
            };
        }
    }

    /** One cell in both runs. */
    public record CellDelta(
            String server,
            String strategy,
            int concurrency,
            String engine,
            Double targetRate,
            int baselineRounds,
            int rounds,
            List<FigureDelta> figures) {

        public String label() {
            return "C=" + concurrency + (targetRate == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", targetRate))
                    + " " + server + "/" + strategy;
        }

        public FigureDelta figure(Figure figure) {
            return figures.stream()
                    .filter(f -> f.figure() == figure)
                    .findFirst()
                    .orElse(null);
        }
    }

    /**
     * A pair's breaking point in both sweeps, in words, and whether it moved: only when both are the server's own and
     * the intervals they were narrowed to (last held, first not held) do not overlap, since the point is known only
     * that far.
     */
    public record BreakingPoint(String server, String strategy, String baseline, String current, String verdict) {}

    /**
     * The figures judged: their name, how they read and which way is better (their values: {@code Baselines.value}).
     */
    public enum Figure {
        REQUESTS_PER_SECOND("req/s", "%,.0f", true),
        OF_BOUND("of bound", "%.3f", true),
        P50("p50 ms", "%,.1f", false),
        P99("p99 ms", "%,.1f", false),
        P999("p99.9 ms", "%,.1f", false),
        SERVER_CPU("srv us/req", "%.1f", false),
        RSS("RSS MB", "%,.0f", false);

        /** How results.json and the console name it. */
        @JsonValue
        public final String name;

        public final String format;
        public final boolean higherIsBetter;

        Figure(String name, String format, boolean higherIsBetter) {
            this.name = name;
            this.format = format;
            this.higherIsBetter = higherIsBetter;
        }

        @JsonCreator
        public static Figure of(String name) {
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

    /**
     * The console's lines: the method, what differs in the environment, each cell, the breaking points, cells in one
     * run only.
     */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("against the baseline " + path + " (" + baselineDate + "); " + method + ":");
        if (environment.isEmpty()) {
            lines.add("  environment: the same fingerprint");
        } else {
            lines.add("  environment differs: " + String.join("; ", environment));
        }
        for (CellDelta cell : cells) {
            lines.add(String.format(
                    Locale.ROOT, "  %s (%d rounds, baseline %d):", cell.label(), cell.rounds(), cell.baselineRounds()));
            cell.figures().forEach(f -> lines.add("    " + f.describe()));
        }
        breakingPoints.forEach(p -> lines.add("  breaking point " + p.server() + "/" + p.strategy() + ": " + p.current()
                + " vs " + p.baseline() + " baseline: " + p.verdict()));
        if (sweepsAgree != null) {
            lines.add("  the two sweeps " + sweepsAgree);
        }
        if (pace != null) {
            lines.add("  " + pace);
        }
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
