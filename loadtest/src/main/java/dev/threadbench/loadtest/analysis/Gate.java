package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code --fail-if} limit. Relative, against the baseline: {@code req/s<-2%}, {@code p99>+5%}, {@code cpu>+10%}
 * (the sign and the % make it relative), breached only by a difference the rounds show ({@link BaselineJudgement}:
 * significant and past the limit). Absolute, on this run's median of each cell: {@code of-bound<95%},
 * {@code p99>2100ms}, {@code failed>0} (the failed requests of all its rounds).
 *
 * @param text     the limit as given
 * @param metric   req/s, of-bound, p50, p99, p99.9, cpu, rss or failed
 * @param above    {@code >}: breached above the limit; {@code <}: below it
 * @param limit    relative: a fraction (+0.05); absolute: in the figure's unit (ms, us/req, MB, a share of the bound,
 *                 requests)
 * @param relative against the baseline
 */
public record Gate(String text, String metric, boolean above, double limit, boolean relative) {

    private static final Pattern SYNTAX = Pattern.compile(
            "\\s*([a-z0-9/.\\-]+?)\\s*([<>])\\s*([+-]?[0-9]+(?:\\.[0-9]+)?)\\s*(%|ms|us|mb)?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final String METRICS = "req/s, of-bound, p50, p99, p99.9, cpu, rss, failed";

    /** The limits of {@code --fail-if}, each checked: one line naming what is wrong. */
    public static List<Gate> parse(List<String> limits) {
        List<Gate> gates = new ArrayList<>();
        for (String limit : limits) {
            if (!limit.isBlank()) {
                gates.add(parse(limit));
            }
        }
        return gates;
    }

    public static Gate parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new UsageException("--fail-if: '" + text + "': expected METRIC<LIMIT or METRIC>LIMIT, METRIC one of "
                    + METRICS + " (e.g. req/s<-2%, p99>+5%, of-bound<95%, p99>2100ms, failed>0)");
        }
        String metric = m.group(1).toLowerCase(Locale.ROOT);
        String number = m.group(3);
        String unit = m.group(4) == null ? "" : m.group(4).toLowerCase(Locale.ROOT);
        boolean signed = number.startsWith("+") || number.startsWith("-");
        double value = Double.parseDouble(number);
        if (figure(metric) == null && !metric.equals("failed")) {
            throw new UsageException(
                    "--fail-if: '" + text + "': unknown metric '" + metric + "' (expected one of " + METRICS + ")");
        }
        if (signed && unit.equals("%")) {
            if (metric.equals("failed")) {
                throw new UsageException("--fail-if: '" + text + "': give failed an absolute count (failed>0)");
            }
            return new Gate(text.replaceAll("\\s", ""), metric, m.group(2).equals(">"), value / 100, true);
        }
        if (signed || unit.equals("%") && !metric.equals("of-bound")) {
            throw new UsageException("--fail-if: '" + text + "': a limit against the baseline takes a sign and % ("
                    + metric + (m.group(2).equals(">") ? ">+5%" : "<-2%") + "); an absolute one "
                    + absoluteExample(metric));
        }
        String expectedUnit = switch (metric) {
            case "of-bound" -> "%";
            case "p50", "p99", "p99.9" -> "ms";
            case "cpu" -> "us";
            case "rss" -> "mb";
            default -> "";
        };
        if (!unit.isEmpty() && !unit.equals(expectedUnit) || metric.equals("of-bound") && unit.isEmpty()) {
            throw new UsageException("--fail-if: '" + text + "': " + metric + " takes " + absoluteExample(metric));
        }
        return new Gate(
                text.replaceAll("\\s", ""),
                metric,
                m.group(2).equals(">"),
                metric.equals("of-bound") ? value / 100 : value,
                false);
    }

    private static String absoluteExample(String metric) {
        return switch (metric) {
            case "of-bound" -> "a share of the bound in % (of-bound<95%)";
            case "p50", "p99", "p99.9" -> "milliseconds (" + metric + ">2100ms)";
            case "cpu" -> "microseconds per request (cpu>40us)";
            case "rss" -> "megabytes (rss>512MB)";
            case "failed" -> "a count (failed>0)";
            default -> "requests/s (req/s<9000)";
        };
    }

    /** The baseline figure a metric stands for; null for failed. */
    static BaselineJudgement.Figure figure(String metric) {
        return switch (metric) {
            case "req/s" -> BaselineJudgement.Figure.REQUESTS_PER_SECOND;
            case "of-bound" -> BaselineJudgement.Figure.OF_BOUND;
            case "p50" -> BaselineJudgement.Figure.P50;
            case "p99" -> BaselineJudgement.Figure.P99;
            case "p99.9" -> BaselineJudgement.Figure.P999;
            case "cpu" -> BaselineJudgement.Figure.SERVER_CPU;
            case "rss" -> BaselineJudgement.Figure.RSS;
            default -> null;
        };
    }

    /**
     * What the gates found: one line per breach, the limits that could not be checked, with why, and every gate and
     * cell judged ({@link Case}, for --junit).
     */
    public record Check(List<String> breaches, List<String> notes, List<Case> cases) {

        public boolean breached() {
            return !breaches.isEmpty();
        }
    }

    /**
     * One gate on one cell: {@code breach}, the breach line, when it failed; {@code note} when it could not be judged
     * (or was past the limit by less than the rounds show); both null: it held. A gate with no cell to judge is one
     * case with the cell "-".
     */
    public record Case(String gate, String cell, String breach, String note) {}

    /** Every gate against {@code results}, and for the relative ones against their {@code baseline} section. */
    public static Check check(List<Gate> gates, Results results) {
        List<String> breaches = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<Case> cases = new ArrayList<>();
        for (Gate gate : gates) {
            if (gate.relative) {
                gate.checkRelative(results.baseline(), cases);
            } else {
                gate.checkAbsolute(Cell.of(results.runs()), cases);
            }
        }
        for (Case c : cases) {
            if (c.breach() != null) {
                breaches.add(c.breach());
            } else if (c.note() != null) {
                notes.add(c.note());
            }
        }
        return new Check(List.copyOf(breaches), List.copyOf(notes), List.copyOf(cases));
    }

    private void checkRelative(BaselineJudgement baseline, List<Case> cases) {
        if (baseline == null || baseline.cells().isEmpty()) {
            cases.add(new Case(text, "-", null, text + ": no cell to judge against the baseline"));
            return;
        }
        BaselineJudgement.Figure named = figure(metric);
        for (BaselineJudgement.CellDelta cell : baseline.cells()) {
            BaselineJudgement.FigureDelta delta = cell.figure(named);
            if (delta == null || delta.change() == null) {
                continue;
            }
            boolean past = above ? delta.change() > limit : delta.change() < limit;
            if (delta.changeLow() != null && delta.changeHigh() != null) {
                // against a history: the change's 95 % bound, not only its middle, must be past the limit
                boolean boundPast = above ? delta.changeLow() > limit : delta.changeHigh() < limit;
                if (boundPast) {
                    cases.add(new Case(text, cell.label(), text + ": " + cell.label() + ": " + delta.describe(), null));
                } else if (past) {
                    cases.add(new Case(
                            text,
                            cell.label(),
                            null,
                            text + ": " + cell.label() + ": past the limit but its 95 % bound is not, not counted: "
                                    + delta.describe()));
                } else {
                    cases.add(new Case(text, cell.label(), null, null));
                }
                continue;
            }
            if (!past) {
                cases.add(new Case(text, cell.label(), null, null));
            } else if (delta.outcome().significant()) {
                cases.add(new Case(text, cell.label(), text + ": " + cell.label() + ": " + delta.describe(), null));
            } else {
                cases.add(new Case(
                        text,
                        cell.label(),
                        null,
                        text + ": " + cell.label() + ": past the limit but not counted: " + delta.describe()));
            }
        }
    }

    private void checkAbsolute(List<Cell> cells, List<Case> cases) {
        for (Cell cell : cells) {
            String where = "C=" + cell.concurrency()
                    + (cell.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", cell.targetRate()))
                    + " " + cell.label();
            Double value;
            String shown;
            if (metric.equals("failed")) {
                value = (double) cell.failed();
                shown = String.format(Locale.ROOT, "%,d failed in %d rounds", cell.failed(), cell.rounds());
            } else {
                BaselineJudgement.Figure figure = figure(metric);
                Spread spread = cell.spread(Baselines.value(figure));
                if (spread == null) {
                    cases.add(new Case(text, where, null, text + ": " + where + ": " + figure.name + " not measured"));
                    continue;
                }
                value = spread.median();
                shown = figure.name + " " + spread.format(figure.format) + " (median of " + spread.n() + " rounds)";
            }
            boolean breached = above ? value > limit : value < limit;
            cases.add(new Case(text, where, breached ? text + ": " + where + ": " + shown : null, null));
        }
    }

    /** Checks that the relative limits have a baseline to be judged against. */
    public static void requireBaseline(List<Gate> gates, boolean baselineGiven) {
        gates.stream().filter(Gate::relative).findFirst().ifPresent(gate -> {
            if (!baselineGiven) {
                throw new UsageException(
                        "--fail-if: '" + gate.text + "' is relative to a baseline: give --baseline PATH");
            }
        });
    }
}
