package dev.threadbench.loadtest.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The side-by-side table in the terminal: one row per run, the servers next to each other per concurrency. */
public final class ConsoleTable {

    private static final String[] HEADER = {"C", "strategy", "server", "engine", "requests", "failed", "req/s", "bound",
            "of bound", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "srv CPU s", "srv RSS MB", "counts", "note"};

    private ConsoleTable() {}

    /** Runs in table order: by concurrency, then strategy, then server. */
    public static List<Results.Run> ordered(List<Results.Run> runs) {
        return runs.stream().sorted(Comparator.comparingInt(Results.Run::concurrency)
                .thenComparing(Results.Run::strategy, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Results.Run::server)).toList();
    }

    public static String render(Results results) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Results.Run r : ordered(results.runs())) {
            rows.add(new String[] {String.valueOf(r.concurrency()), r.strategy(), r.server(), r.engine(),
                    String.format(Locale.ROOT, "%,d", r.requests()), String.format(Locale.ROOT, "%,d", r.failed().total()),
                    String.format(Locale.ROOT, "%,.0f", r.requestsPerSecond()),
                    r.bound() == null ? "-" : String.format(Locale.ROOT, "%,.0f", r.bound()),
                    r.ratioToBound() == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * r.ratioToBound()),
                    ms(r.latencyMs().p50()), ms(r.latencyMs().p99()), ms(r.latencyMs().p999()), ms(r.latencyMs().max()),
                    serverFigure(r.serverCpuSeconds(), "%.1f"), serverFigure(r.serverPeakRssMb(), "%.0f"), counts(r.reconciliation()),
                    r.generatorBound() ? "GENERATOR-BOUND" : ""});
        }
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                boolean left = i == 1 || i == 2 || i == 3 || i >= HEADER.length - 2;
                String cell = left ? String.format("%-" + widths[i] + "s", row[i]) : String.format("%" + widths[i] + "s", row[i]);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            text.append(line.toString().stripTrailing()).append('\n');
            if (r == 0) {
                text.append("-".repeat(line.toString().stripTrailing().length())).append('\n');
            }
        }
        text.append("bound: the most requests/s the workload allows (C closed-loop clients, every ")
                .append(results.settings() == null ? "10" : results.settings().delayEvery()).append("th request held ")
                .append(results.settings() == null ? "2000" : results.settings().delayMs()).append(" ms: 5 x C with the defaults).\n")
                .append("counts: the server's /stats count against the answers the client got (exact, explained by failed"
                        + " or abandoned requests, or MISMATCH).\n");
        if (results.runs().stream().anyMatch(r -> r.serverCpuSeconds() == null || r.serverPeakRssMb() == null)) {
            text.append("n/a: a server's CPU and RSS are read from its process, which compare can only see when it started"
                    + " the server itself (not with --targets).\n");
        }
        if (results.runs().stream().anyMatch(Results.Run::generatorBound)) {
            text.append("GENERATOR-BOUND: the load generator saturated its share of this machine's cores; that figure is"
                    + " the generator's limit as much as the server's.\n");
        }
        return text.toString();
    }

    /** One run in a line, printed as each finishes. */
    public static String oneLine(Results.Run r) {
        return String.format(Locale.ROOT, "C=%d: %,.0f req/s%s, p50 %s ms, p99 %s ms, %,d failed, server CPU %s, peak RSS %s, counts %s%s",
                r.concurrency(), r.requestsPerSecond(),
                r.bound() == null ? "" : String.format(Locale.ROOT, " (%.1f%% of the %,.0f bound)", 100 * r.ratioToBound(), r.bound()),
                ms(r.latencyMs().p50()), ms(r.latencyMs().p99()), r.failed().total(), serverFigure(r.serverCpuSeconds(), "%.1f s"),
                serverFigure(r.serverPeakRssMb(), "%.0f MB"), counts(r.reconciliation()), r.generatorBound() ? " [GENERATOR-BOUND]" : "");
    }

    static String counts(Results.Reconciliation c) {
        if (c == null) {
            return "-";
        }
        return switch (c.verdict()) {
            case "exact" -> "exact";
            case "explained" -> String.format(Locale.ROOT, "explained (+%d)", c.difference());
            default -> String.format(Locale.ROOT, "MISMATCH (%+d)", c.difference());
        };
    }

    private static String ms(Double value) {
        if (value == null) {
            return "-";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    /** A server figure compare could not read (a server it did not start, whose process it cannot see) is n/a. */
    private static String serverFigure(Double value, String format) {
        return value == null ? "n/a" : String.format(Locale.ROOT, format, value);
    }
}
