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
 * versions: each figure of each cell both ran by a permutation test over their rounds ({@link PermutationTest}), each
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
        List<Matched> pairs = sweeps ? matched(SweepPairs.of(baseline), SweepPairs.of(current)) : List.of();
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
                sweeps ? sweepsAgree(pairs) : null,
                sweeps ? pace(pairs, Fingerprint.oneBuild(baseline.environment(), current.environment())) : null);
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

    private static boolean sameCell(Cell before, Cell after, UnaryOperator<String> rename) {
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
                    figure.name,
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
                        figure.name, before, after, change, null, BaselineJudgement.Outcome.NOT_JUDGED, limit);
            }
        }
        if (!PermutationTest.canJudge(b.length, c.length)) {
            return new BaselineJudgement.FigureDelta(
                    figure.name,
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
                            PermutationTest.leastP(b.length, c.length)));
        }
        double p = PermutationTest.pValue(b, c);
        boolean nameable =
                change != null ? Math.abs(change) * 100 >= NAMEABLE_PERCENT : after.median() != before.median();
        BaselineJudgement.Outcome outcome = p > PermutationTest.ALPHA || !nameable
                ? BaselineJudgement.Outcome.NO_DIFFERENCE
                : (after.median() > before.median()) == figure.higherIsBetter
                        ? BaselineJudgement.Outcome.BETTER
                        : BaselineJudgement.Outcome.WORSE;
        return new BaselineJudgement.FigureDelta(figure.name, before, after, change, p, outcome, null);
    }

    /** Why throughput cannot be judged in a cell: the generator was the limit, or a round read above the bound. */
    private static String throughputNotJudged(Cell cell, String run) {
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

    /** A pair of this run's sweep beside the baseline's of the same server and strategy. */
    private record Matched(SweepPair before, SweepPair now) {}

    /** Each of {@code after}'s pairs that {@code before} has too, in {@code after}'s order. */
    private static List<Matched> matched(List<SweepPair> before, List<SweepPair> after) {
        List<Matched> matched = new ArrayList<>();
        for (SweepPair now : after) {
            before.stream()
                    .filter(b -> b.label().equals(now.label()))
                    .findFirst()
                    .ifPresent(b -> matched.add(new Matched(b, now)));
        }
        return matched;
    }

    private static List<BaselineJudgement.BreakingPoint> breakingPoints(List<Matched> pairs) {
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

    /**
     * Whether two sweeps repeat each other: every pair in both has overlapping intervals (last held, first not held:
     * its breaking point lies between them, so two that overlap may share one), or held at every concurrency (or at
     * none) in both; and any two pairs whose intervals are apart in one sweep are not apart the other way round in the
     * other. Labels aside: a repeat is about where each pair stopped holding, whatever stopped it.
     */
    static String sweepsAgree(List<SweepPair> before, List<SweepPair> after) {
        return sweepsAgree(matched(before, after));
    }

    private static String sweepsAgree(List<Matched> both) {
        if (both.isEmpty()) {
            return "have no pair in common";
        }
        List<String> apart = new ArrayList<>();
        for (Matched p : both) {
            String why = disagreement(p.before(), p.now());
            if (why != null) {
                apart.add(p.now().label() + " " + why);
            }
        }
        int ordered = 0;
        for (int i = 0; i < both.size(); i++) {
            for (int j = i + 1; j < both.size(); j++) {
                int before0 = below(both.get(i).before(), both.get(j).before());
                int after0 = below(both.get(i).now(), both.get(j).now());
                if (before0 != 0 || after0 != 0) {
                    ordered++;
                }
                if (before0 != 0 && after0 != 0 && before0 != after0) {
                    apart.add(String.format(
                            Locale.ROOT,
                            "%s and %s in the opposite order",
                            both.get(i).now().label(),
                            both.get(j).now().label()));
                }
            }
        }
        if (!apart.isEmpty()) {
            return "disagree: " + String.join("; ", apart);
        }
        return String.format(
                Locale.ROOT,
                "agree: every pair's intervals overlap (%d pairs)%s",
                both.size(),
                ordered == 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", and where two pairs' intervals are apart (%d time%s),"
                                        + " they come in the same order in both",
                                ordered,
                                ordered == 1 ? "" : "s"));
    }

    /**
     * The servers' pace in two sweeps: each pair's CPU per request where its sweep compares it (the concurrency nearest
     * 2,000, held by every pair in the sweeps so far), this sweep's over the baseline's. Of one build, a pace that moved
     * is the machine's: a breaking point its server's core sets moves with it, so two intervals apart then say nothing
     * of the code. Null when no pair has the figure in both at one concurrency.
     */
    static String pace(List<SweepPair> before, List<SweepPair> after, boolean oneBuild) {
        return pace(matched(before, after), oneBuild);
    }

    private static String pace(List<Matched> both, boolean oneBuild) {
        List<Matched> measured = both.stream()
                .filter(p -> p.before().cpuMicrosPerRequest() != null
                        && p.now().cpuMicrosPerRequest() != null
                        && p.before().cpuConcurrency() == p.now().cpuConcurrency())
                .toList();
        if (measured.isEmpty()) {
            return null;
        }
        Spread ratio = Spread.of(measured.stream()
                .map(p -> p.now().cpuMicrosPerRequest().median()
                        / p.before().cpuMicrosPerRequest().median())
                .toList());
        long beyondSpread = measured.stream()
                .filter(p -> Spread.judge(p.before().cpuMicrosPerRequest(), p.now().cpuMicrosPerRequest())
                        == Spread.Judgement.DIFFERENT)
                .count();
        boolean oneConcurrency =
                measured.stream().map(p -> p.now().cpuConcurrency()).distinct().count() == 1;
        String figures = String.format(
                Locale.ROOT,
                "CPU per request at %s: %.2fx the baseline's (median of %d pair%s, %.2fx-%.2fx), beyond the rounds'"
                        + " spread in %d",
                oneConcurrency
                        ? String.format(
                                Locale.ROOT, "%,d connections", measured.getFirst().now().cpuConcurrency())
                        : "the concurrency nearest 2,000",
                ratio.median(),
                measured.size(),
                measured.size() == 1 ? "" : "s",
                ratio.min(),
                ratio.max(),
                beyondSpread);
        if (2 * beyondSpread <= measured.size()) {
            return figures + ": the same pace as far as the rounds show";
        }
        String way = ratio.median() > 1 ? "slower" : "faster";
        return figures + (oneBuild
                ? String.format(
                        Locale.ROOT,
                        ": one build in both, so the machine ran %s, and a breaking point its server's core sets"
                                + " comes %s by about as much",
                        way,
                        ratio.median() > 1 ? "lower" : "higher")
                : ": the builds differ, so the machine's pace and the code's cost are not told apart");
    }

    /**
     * Why a pair's two readings disagree: intervals apart, or held everywhere (or nowhere) in one only; null if they
     * agree.
     */
    private static String disagreement(SweepPair a, SweepPair b) {
        if (a.heldAt() == null || b.heldAt() == null) {
            return a.heldAt() == null && b.heldAt() == null ? null : "held at no concurrency in one sweep only";
        }
        if (a.notHeldAt() == null || b.notHeldAt() == null) {
            return a.notHeldAt() == null && b.notHeldAt() == null
                    ? null
                    : "held at every concurrency in one sweep only";
        }
        return a.heldAt() < b.notHeldAt() && b.heldAt() < a.notHeldAt()
                ? null
                : String.format(
                        Locale.ROOT,
                        "intervals apart: %,d-%,d and %,d-%,d",
                        a.heldAt(),
                        a.notHeldAt(),
                        b.heldAt(),
                        b.notHeldAt());
    }

    /** -1 when p's interval lies wholly below q's, 1 when wholly above, 0 when they overlap or either has none. */
    private static int below(SweepPair p, SweepPair q) {
        if (p.heldAt() == null || p.notHeldAt() == null || q.heldAt() == null || q.notHeldAt() == null) {
            return 0;
        }
        return p.notHeldAt() <= q.heldAt() ? -1 : q.notHeldAt() <= p.heldAt() ? 1 : 0;
    }
}
