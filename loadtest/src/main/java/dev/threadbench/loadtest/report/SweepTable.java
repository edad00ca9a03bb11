package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.ReadableNumber;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sweep's summary in the terminal: one row per server x strategy ({@link SweepPair}); empty for a plain compare.
 */
public final class SweepTable {

    private static final String[] HEADER = {
        "server",
        "strategy",
        "heap MB/1k conn",
        "RSS MB/1k conn",
        "CPU us/req",
        "at C",
        "user / sys",
        "breaking point",
        "limit"
    };

    /** What follows a sweep point read above the bound, in the console and the report. */
    static final String ARTEFACT =
            ", more than C closed-loop clients can get: a measurement artefact, not a result (its runs'"
                    + " notes give the cause)";

    private SweepTable() {}

    static String render(List<SweepPair> pairs, List<Cell> cells, List<Results.Skipped> skipped, Double resolution) {
        if (pairs.isEmpty()) {
            return "";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        pairs.forEach(p -> rows.add(row(p)));
        StringBuilder text = new StringBuilder(
                        "\nsweep: memory per 1,000 connections (least-squares slope over the concurrencies),"
                                + " CPU per request, breaking point:\n")
                .append(TextGrid.render(rows, Set.of(0, 1, 7, 8)))
                .append(String.format(
                        Locale.ROOT,
                        "breaking point: between the largest concurrency still held (%s) and the"
                                + " first above it held in none of its rounds, the"
                                + " concurrencies between held in some rounds only%s; a number only where the"
                                + " evidence shows the server"
                                + " stopped it and its ends,"
                                + " measured again, agree.%n",
                        SweepPairs.HOLDS_RULE,
                        narrowed(pairs, resolution)))
                .append("limit: what tells the held end from where holding first failed, a sign in most runs not"
                        + " held there and in a minority of the held end's: server (its CPUs full, its threads starved"
                        + " on the run queue or its worker pool held by delayed requests; the generator not short of"
                        + " CPU time), generator (short of CPU time, the server not), machine (accept-queue drops, or"
                        + " not run), unexplained (none of these, a sign at the held end too, both sides short, or"
                        + " failed requests only: the evidence follows), or none (held at the largest swept).\n");
        pairs.forEach(p -> text.append(limitLines(p)));
        AboveBound.sweepPoints(cells, null)
                .forEach(point -> text.append("  ARTEFACT: ")
                        .append(point)
                        .append(ARTEFACT)
                        .append('\n'));
        skipped.forEach(
                s -> text.append(String.format(Locale.ROOT, "not run: C=%,d: %s%n", s.concurrency(), s.reason())));
        return text.toString();
    }

    /** A pair's row, in {@link #HEADER}'s order. */
    private static String[] row(SweepPair p) {
        return new String[] {
            p.server(),
            String.valueOf(p.strategy()),
            number(p.heapMbPer1000(), "%+.1f"),
            number(p.rssMbPer1000(), "%+.1f"),
            Spread.format(p.cpuMicrosPerRequest(), "%.1f"),
            String.format(Locale.ROOT, "%,d", p.cpuConcurrency()),
            p.cpuUserMicrosPerRequest() == null || p.cpuSystemMicrosPerRequest() == null
                    ? "n/a"
                    : String.format(
                            Locale.ROOT,
                            "%.1f / %.1f",
                            p.cpuUserMicrosPerRequest().median(),
                            p.cpuSystemMicrosPerRequest().median()),
            p.reading(),
            p.limit().id()
        };
    }

    /** A pair's limit with its evidence, what fell short below it, and how its ends read again. */
    private static String limitLines(SweepPair p) {
        String line = "  " + p.label() + ": " + p.limitDetail()
                + (p.shortBelow() == null ? "" : "; short of the bound or failures below it, at " + p.shortBelow())
                + "\n";
        return p.endsReading().isEmpty() ? line : line + "    " + p.endsReading() + "\n";
    }

    /**
     * The pairs as a Markdown table, docs/results.md's and docs/sweep.md's: breaking point (or why none was found),
     * its interval, its limit, memory and CPU; empty without pairs.
     */
    public static String markdown(List<SweepPair> pairs) {
        if (pairs.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder("| server, strategy | breaking point | held at | not held at | limit |"
                + " ends measured again | peak RSS MB per 1,000 connections | server CPU µs/request (at C) |\n"
                + "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (SweepPair p : pairs) {
            String reading = p.reading();
            text.append(String.format(
                    Locale.ROOT,
                    "| %s, %s | %s | %s | %s | %s | %s | %s | %s (%,d) |%n",
                    p.server(),
                    p.strategy(),
                    p.breakingPoint() != null
                            ? String.format(Locale.ROOT, "%,d", p.breakingPoint())
                            : reading.replaceFirst(" \\(.*", ""),
                    p.heldAt() == null ? "-" : String.format(Locale.ROOT, "%,d", p.heldAt()),
                    p.notHeldAt() == null ? "-" : String.format(Locale.ROOT, "%,d", p.notHeldAt()),
                    p.limitDetail()
                            + (p.shortBelow() == null
                                    ? ""
                                    : "; short of the bound or failures below, at " + p.shortBelow()),
                    p.ends() == null
                            ? "-"
                            : p.ends().verdict() + ": " + p.ends().describe()
                                    + (p.band() == null
                                            ? ""
                                            : "; held in some rounds only: "
                                                    + String.join(
                                                            ", ",
                                                            p.band().stream()
                                                                    .map(SweepPair.Share::describe)
                                                                    .toList())),
                    number(p.rssMbPer1000(), "%+.1f"),
                    Spread.format(p.cpuMicrosPerRequest(), "%.1f").replace('-', '–'),
                    p.cpuConcurrency()));
        }
        return text.toString();
    }

    /**
     * ", narrowed in to within 10 % of it" when every pair with an interval is within the resolution; otherwise it says
     * which are not (a lost run, no readable number left between, or an interval widened past readings that differ),
     * never claiming a narrowing that did not happen.
     */
    static String narrowed(List<SweepPair> pairs, Double resolution) {
        if (resolution == null) {
            return "";
        }
        List<String> wide = pairs.stream()
                .filter(p -> p.interval() != null
                        && p.interval() > resolution + 1e-9
                        && ReadableNumber.between(p.heldAt(), p.notHeldAt()) != null)
                .map(p -> String.format(
                        Locale.ROOT,
                        "%s %.0f %%%s",
                        p.label(),
                        100 * p.interval(),
                        p.band() != null
                                ? " (across concurrencies held in some rounds only)"
                                : p.ends() != null && p.ends().nonMonotone()
                                        ? " (widened past readings that differ)"
                                        : ""))
                .toList();
        String within = ReadableNumber.percent(resolution);
        return wide.isEmpty()
                ? String.format(Locale.ROOT, ", narrowed in to within %s %% of it", within)
                : String.format(
                        Locale.ROOT, ", narrowed in to within %s %% of it except %s", within, String.join(", ", wide));
    }

    private static String number(Double value, String format) {
        return value == null ? "n/a" : String.format(Locale.ROOT, format, value);
    }
}
