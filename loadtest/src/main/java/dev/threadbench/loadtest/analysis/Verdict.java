package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The two servers set against each other at each concurrency, figure by figure: req/s, p99, request CPU, peak
 * threads, RSS and heap after GC. Each figure of each pair goes through the exact rank-sum test over the two cells'
 * rounds ({@link RankSum}); the p of all of them are corrected together by Holm ({@link Holm}), so that the
 * chance of naming any difference where there is none is at most 5 % over the whole verdict. A difference is named
 * where its adjusted p is at most 0.05 and the medians lie 1 % or more apart; where the rounds cannot reach that
 * whatever their values, the verdict says so and how many rounds it would need. Never one in requests/s when the
 * generator was the limit; a server that used all its CPUs is said to have.
 */
public final class Verdict {

    /**
     * Below this a difference is not named even when significant: two tight sets of rounds at the bound can sit
     * 0.03 % apart, which says nothing about the servers.
     */
    static final double NAMEABLE_PERCENT = 1;

    public static final String METHOD = "exact rank-sum test per figure and pair, Holm-corrected over all of them"
            + " (family-wise 5 %), and 1 % or more";

    private Verdict() {}

    /** How many figures the verdict judges for each pair. */
    public static final int FIGURES = Figure.values().length;

    /** A figure the verdict judges: how it reads in one run, how it is printed, and what the lower side is called. */
    enum Figure {
        REQUESTS_PER_SECOND("req/s", "%,.0f", "more"),
        P99("p99 ms", "%,.0f", "lower"),
        REQUEST_CPU("request CPU us/req", "%.1f", "less"),
        PEAK_THREADS("peak threads", "%,.0f", "fewer"),
        RSS("RSS MB", "%,.0f", "less"),
        HEAP_AFTER_GC("heap after GC MB", "%,.1f", "less");

        /** A figure of the server's process rather than of its answers. */
        boolean ofTheProcess() {
            return this == PEAK_THREADS || this == RSS || this == HEAP_AFTER_GC;
        }

        final String label;
        final String format;
        /** What the side named has: "more" req/s, "less" CPU. */
        final String word;

        Figure(String label, String format, String word) {
            this.label = label;
            this.format = format;
            this.word = word;
        }

        Function<Run, Double> value(boolean billed) {
            return switch (this) {
                case REQUESTS_PER_SECOND -> r -> r.load().requestsPerSecond();
                case P99 -> r -> r.latency().latencyMs().p99();
                case REQUEST_CPU ->
                    billed ? cost(ServerCost::requestCpuMicrosPerRequest) : Cell::serverCpuMicrosPerRequest;
                case PEAK_THREADS ->
                    cost(c -> c.peakThreads() == null ? null : c.peakThreads().doubleValue());
                case RSS -> r -> r.serverSide().peakRssMb();
                case HEAP_AFTER_GC -> cost(ServerCost::heapAfterGcMb);
            };
        }

        private static Function<Run, Double> cost(Function<ServerCost, Double> figure) {
            return r -> r.serverSide().cost() == null
                    ? null
                    : figure.apply(r.serverSide().cost());
        }
    }

    public enum Outcome {
        /** Significant after Holm's correction and 1 % or more apart. */
        DIFFERENT,
        NO_DIFFERENCE,
        /** The rounds could not name a difference among this many tests whatever their values. */
        TOO_FEW_ROUNDS,
        NOT_JUDGED,
        NOT_MEASURED
    }

    /**
     * One figure of one pair, as judged.
     *
     * @param pair       "C=2000 undertow/blocking vs vertx/timer"
     * @param figure     the figure's label
     * @param named      the side named (the one with more req/s, less CPU ...) when different; null otherwise
     * @param percent    how far apart the medians are, relative to the smaller one (req/s) or the larger (the rest)
     * @param p          the rank-sum test's two-sided p; null when not tested
     * @param adjusted   Holm's adjusted p
     * @param tests      how many tests Holm corrected over
     * @param detectable the smallest difference, in %, these rounds could have named: the shift of one side's
     *                   medians that would have set their ranges apart, at least 1 %; null when none could be named
     * @param words      the judgement as printed
     */
    public record Judgment(
            String pair,
            String figure,
            Spread first,
            Spread second,
            Outcome outcome,
            String named,
            Double percent,
            Double p,
            Double adjusted,
            int tests,
            Double detectable,
            String words) {}

    /**
     * The verdict of a results file: for a sweep, its sentences ({@link SweepVerdict}) and then the servers set
     * against each other at the concurrency nearest 2000; otherwise the servers at each concurrency.
     */
    public static List<String> lines(Results results) {
        List<String> lines = new ArrayList<>();
        if (results.swept()) {
            lines.addAll(SweepVerdict.lines(SweepPairs.of(results)));
        }
        lines.addAll(lines(judgedCells(results), oneProcess(results)));
        return lines;
    }

    /** Each figure of each pair of a results file, judged (for a sweep, at the concurrency nearest 2000). */
    public static List<Judgment> judgments(Results results) {
        return judgments(pairs(judgedCells(results)), oneProcess(results));
    }

    private static boolean oneProcess(Results results) {
        return results.settings() != null && results.settings().oneProcessPerServer();
    }

    private static List<Cell> judgedCells(Results results) {
        List<Cell> cells = Cell.of(results.runs());
        if (!results.swept()) {
            return cells;
        }
        int nearest = SweepPairs.nearestCpuConcurrency(cells);
        return cells.stream().filter(c -> c.concurrency() == nearest).toList();
    }

    /** Per pair, a line naming it (with a server that used its CPUs to the full), then one line per figure. */
    public static List<String> lines(List<Cell> cells) {
        return lines(cells, false);
    }

    /**
     * @param oneProcess one process of each server served every round (--targets): the figures of the process are not
     *                   judged, since its rounds are not independent readings of it
     */
    static List<String> lines(List<Cell> cells, boolean oneProcess) {
        List<Pair> pairs = pairs(cells);
        List<Judgment> judgments = judgments(pairs, oneProcess);
        List<String> lines = new ArrayList<>();
        for (Pair pair : pairs) {
            StringBuilder head = new StringBuilder(pair.name()).append(':');
            for (Cell cell : List.of(pair.a, pair.b)) {
                if (cell.serverBoundRounds() > 0) {
                    head.append(String.format(
                            Locale.ROOT,
                            " %s server-bound in %d/%d rounds (it used its CPUs to the full);",
                            cell.label(),
                            cell.serverBoundRounds(),
                            cell.rounds()));
                }
            }
            lines.add(head.charAt(head.length() - 1) == ';' ? head.substring(0, head.length() - 1) : head.toString());
            judgments.stream()
                    .filter(j -> j.pair().equals(pair.name()))
                    .forEach(j -> lines.add("  " + j.figure() + " " + Spread.format(j.first(), format(j)) + " vs "
                            + Spread.format(j.second(), format(j)) + ": " + j.words()));
        }
        return lines;
    }

    private static String format(Judgment judgment) {
        for (Figure figure : Figure.values()) {
            if (judgment.figure().equals(figure.label)) {
                return figure.format;
            }
        }
        return "%.1f";
    }

    record Pair(Cell a, Cell b) {
        String name() {
            return String.format(
                    Locale.ROOT,
                    "C=%d%s %s vs %s",
                    a.concurrency(),
                    a.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", a.targetRate()),
                    a.label(),
                    b.label());
        }
    }

    /** The pairs: the same strategy on both servers, or each server's only one (its default). */
    static List<Pair> pairs(List<Cell> cells) {
        Map<List<Object>, List<Cell>> groups = new LinkedHashMap<>();
        for (Cell cell : cells) {
            groups.computeIfAbsent(
                            List.of(cell.concurrency(), String.valueOf(cell.targetRate()), cell.engine()),
                            key -> new ArrayList<>())
                    .add(cell);
        }
        List<Pair> pairs = new ArrayList<>();
        for (List<Cell> group : groups.values()) {
            List<String> servers = group.stream().map(Cell::server).distinct().toList();
            if (servers.size() != 2) {
                continue;
            }
            List<Cell> first = group.stream()
                    .filter(c -> c.server().equals(servers.get(0)))
                    .toList();
            List<Cell> second = group.stream()
                    .filter(c -> c.server().equals(servers.get(1)))
                    .toList();
            boolean paired = false;
            for (Cell a : first) {
                for (Cell b : second) {
                    if (Objects.equals(a.strategy(), b.strategy())) {
                        pairs.add(new Pair(a, b));
                        paired = true;
                    }
                }
            }
            if (!paired && first.size() == 1 && second.size() == 1) {
                pairs.add(new Pair(first.getFirst(), second.getFirst()));
            }
        }
        return pairs;
    }

    /** One figure of one pair before Holm: its rounds, or why it is not tested. */
    private record Candidate(
            Pair pair,
            Figure figure,
            String label,
            Spread first,
            Spread second,
            double[] a,
            double[] b,
            Outcome outcome,
            String why) {
        boolean tested() {
            return outcome == null;
        }
    }

    static List<Judgment> judgments(List<Pair> pairs) {
        return judgments(pairs, false);
    }

    static List<Judgment> judgments(List<Pair> pairs, boolean oneProcess) {
        List<Candidate> candidates = new ArrayList<>();
        for (Pair pair : pairs) {
            for (Figure figure : Figure.values()) {
                candidates.add(candidate(pair, figure, Figure.values().length * pairs.size(), oneProcess));
            }
        }
        List<Candidate> tested = candidates.stream().filter(Candidate::tested).toList();
        int tests = tested.size();
        double[] p = tested.stream().mapToDouble(c -> RankSum.pValue(c.a, c.b)).toArray();
        double[] adjusted = Holm.adjust(p);
        List<Judgment> judgments = new ArrayList<>();
        for (Candidate candidate : candidates) {
            int i = tested.indexOf(candidate);
            judgments.add(i < 0 ? untested(candidate) : judged(candidate, p[i], adjusted[i], tests));
        }
        return judgments;
    }

    private static Judgment judged(Candidate c, double p, double adjusted, int tests) {
        JudgmentWords.Sides sides = new JudgmentWords.Sides(c.pair.a.label(), c.pair.b.label(), c.a, c.b);
        String shares = c.figure == Figure.REQUEST_CPU ? selfShares(c.pair) : "";
        return JudgmentWords.judged(
                new JudgmentWords.Tested(c.pair.name(), c.label, c.figure.word, c.first, c.second, sides, shares),
                new JudgmentWords.Test(p, adjusted, tests));
    }

    private static Judgment untested(Candidate c) {
        return new Judgment(
                c.pair.name(), c.label, c.first, c.second, c.outcome, null, null, null, null, 0, null, c.why);
    }

    private static Candidate candidate(Pair pair, Figure figure, int mostTests, boolean oneProcess) {
        boolean billed = pair.a.billed() && pair.b.billed();
        Function<Run, Double> value = figure.value(billed);
        Spread first = pair.a.spread(value);
        Spread second = pair.b.spread(value);
        String label = figure == Figure.REQUEST_CPU && !billed ? "srv CPU us/req" : figure.label;
        if (first == null || second == null) {
            return new Candidate(pair, figure, label, first, second, null, null, Outcome.NOT_MEASURED, "not measured");
        }
        String why = notJudged(pair, figure, first, second, mostTests, oneProcess);
        if (why != null) {
            return new Candidate(pair, figure, label, first, second, null, null, Outcome.NOT_JUDGED, why);
        }
        double[] a = values(pair.a, value);
        double[] b = values(pair.b, value);
        return new Candidate(pair, figure, label, first, second, a, b, null, null);
    }

    /** Why a measured figure is not judged; null when it is. */
    private static String notJudged(
            Pair pair, Figure figure, Spread first, Spread second, int mostTests, boolean oneProcess) {
        if (oneProcess && figure.ofTheProcess()) {
            return "not judged: one process of each served every round (--targets), so its rounds are not independent"
                    + " readings of it";
        }
        if (figure == Figure.REQUESTS_PER_SECOND) {
            String why = throughputNotJudged(pair.a, pair.b);
            if (why != null) {
                return why;
            }
        }
        if (first.n() < 2 || second.n() < 2) {
            return "not judged: one round has no spread (--repeat " + Holm.roundsNeeded(mostTests) + " or more)";
        }
        return null;
    }

    private static double[] values(Cell cell, Function<Run, Double> value) {
        return cell.runs().stream()
                .map(value)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    private static String throughputNotJudged(Cell a, Cell b) {
        for (Cell cell : List.of(a, b)) {
            if (cell.aboveBoundRounds() > 0) {
                return String.format(
                        Locale.ROOT,
                        "not judged: above the bound in %d/%d rounds of %s (a measurement artefact, not"
                                + " a result: see the run's note)",
                        cell.aboveBoundRounds(),
                        cell.rounds(),
                        cell.label());
            }
        }
        for (Cell cell : List.of(a, b)) {
            if (cell.generatorBoundRounds() > 0) {
                return String.format(
                        Locale.ROOT,
                        "not judged: generator-bound in %d/%d rounds of %s (the generator's limit,"
                                + " not the server's)",
                        cell.generatorBoundRounds(),
                        cell.rounds(),
                        cell.label());
            }
        }
        return null;
    }

    /** "; apart: JIT 4 % and GC 2 % of a's CPU, JIT 9 % and GC 1 % of b's": what the request CPU leaves out. */
    private static String selfShares(Pair pair) {
        if (!pair.a.billed() || !pair.b.billed()) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "; apart: JIT %s and GC %s of %s's CPU, JIT %s and GC %s of %s's",
                share(pair.a, "jit"),
                share(pair.a, "gc"),
                pair.a.label(),
                share(pair.b, "jit"),
                share(pair.b, "gc"),
                pair.b.label());
    }

    private static String share(Cell cell, String threadClass) {
        Spread share = cell.cost(c -> c.classShare(threadClass));
        return share == null ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * share.median());
    }
}
