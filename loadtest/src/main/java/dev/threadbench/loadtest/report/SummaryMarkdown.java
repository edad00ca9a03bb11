package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.Gate;
import dev.threadbench.loadtest.model.BaselineJudgement;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * summary.md: the run in a short Markdown table fit for a pull-request comment: one row per cell with its requests/s,
 * share of the bound, p99, server CPU per request and failed requests (medians of the rounds), and with a baseline each
 * figure's change and verdict; then the limits breached.
 */
public final class SummaryMarkdown {

    private SummaryMarkdown() {}

    public static String render(Results results, Gate.Check gates) {
        StringBuilder md = new StringBuilder();
        md.append("### loadtest compare")
                .append(
                        results.environment() == null
                                ? ""
                                : ", " + results.environment().date())
                .append("\n\n");
        md.append(results.baseline() == null ? cells(results) : againstBaseline(results, results.baseline()));
        if (gates != null) {
            List<String> lines = new ArrayList<>();
            gates.breaches().forEach(b -> lines.add("- **breached** " + b));
            if (!lines.isEmpty()) {
                md.append("\n").append(String.join("\n", lines)).append("\n");
            } else {
                md.append("\nNo --fail-if limit breached.\n");
            }
        }
        return md.toString();
    }

    /** A row per cell: medians of its rounds. */
    private static String cells(Results results) {
        StringBuilder md = new StringBuilder();
        md.append("| cell | rounds | req/s | of bound | p99 ms | srv us/req | failed |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (Cell cell : Cell.of(results.runs())) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %s | %s | %s | %,d |%n",
                    label(cell),
                    cell.rounds(),
                    median(cell.requestsPerSecond(), "%,.0f"),
                    median(cell.spread(run -> run.load().ratioToBound()), "%.3f"),
                    median(cell.spread(r -> r.latency().latencyMs().p99()), "%,.0f"),
                    median(cell.serverCpuMicrosPerRequest(), "%.1f"),
                    cell.failed()));
        }
        return md.toString();
    }

    /** A row per cell with each figure's change against the baseline, then what the two runs do not share. */
    private static String againstBaseline(Results results, BaselineJudgement baseline) {
        StringBuilder md = new StringBuilder();
        md.append("Against the baseline of ")
                .append(baseline.baselineDate())
                .append(" (")
                .append(baseline.method())
                .append(").\n\n");
        md.append("| cell | rounds | req/s | p99 ms | srv us/req | failed |\n");
        md.append("|---|---:|---|---|---|---:|\n");
        List<Cell> cells = Cell.of(results.runs());
        for (BaselineJudgement.CellDelta delta : baseline.cells()) {
            long failed = cells.stream()
                    .filter(c -> c.server().equals(delta.server())
                            && c.concurrency() == delta.concurrency()
                            && Objects.equals(c.strategy(), delta.strategy())
                            && Objects.equals(c.targetRate(), delta.targetRate())
                            && Objects.equals(c.engine(), delta.engine()))
                    .mapToLong(Cell::failed)
                    .sum();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d vs %d | %s | %s | %s | %,d |%n",
                    delta.label(),
                    delta.rounds(),
                    delta.baselineRounds(),
                    cellOf(delta.figure(BaselineJudgement.Figure.REQUESTS_PER_SECOND), "%,.0f"),
                    cellOf(delta.figure(BaselineJudgement.Figure.P99), "%,.0f"),
                    cellOf(delta.figure(BaselineJudgement.Figure.SERVER_CPU), "%.1f"),
                    failed));
        }
        if (!baseline.onlyInThisRun().isEmpty()) {
            md.append("\nNot in the baseline: ")
                    .append(String.join("; ", baseline.onlyInThisRun()))
                    .append(".\n");
        }
        if (!baseline.environment().isEmpty()) {
            md.append("\nEnvironment differs: ")
                    .append(String.join("; ", baseline.environment()))
                    .append(".\n");
        }
        return md.toString();
    }

    /** "9,990 vs 10,020: **worse** -0.3 % (p = 0.03)". */
    private static String cellOf(BaselineJudgement.FigureDelta delta, String format) {
        if (delta == null || delta.outcome() == BaselineJudgement.Outcome.NOT_MEASURED) {
            return "-";
        }
        String values = median(delta.current(), format) + " vs " + median(delta.baseline(), format);
        String change = delta.change() == null ? "" : String.format(Locale.ROOT, " %+.1f %%", 100 * delta.change());
        String p = delta.p() == null ? "" : String.format(Locale.ROOT, " (p = %.3f)", delta.p());
        return switch (delta.outcome()) {
            case BETTER, WORSE -> values + ": **" + delta.outcome().words() + "**" + change + p;
            default -> values + ": " + delta.outcome().words() + change + p;
        };
    }

    private static String median(Spread spread, String format) {
        return spread == null ? "-" : String.format(Locale.ROOT, format, spread.median());
    }

    private static String label(Cell cell) {
        return "C=" + cell.concurrency()
                + (cell.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", cell.targetRate())) + " "
                + cell.label();
    }
}
