package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The side-by-side table in the terminal: one row per cell, the servers next to each other per concurrency. */
public final class ConsoleTable {

    private static final String[] HEADER = {
        "C",
        "strategy",
        "server",
        "engine",
        "rounds",
        "req/s",
        "bound",
        "of bound",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms",
        "srv us/req",
        "gen us/req",
        "srv CPU",
        "gen CPU",
        "srv RSS MB",
        "failed",
        "counts",
        "note"
    };
    /** Left-aligned columns: the names, the counts and the note. */
    private static final Set<Integer> LEFT = Set.of(1, 2, 3, 18, 19);

    private ConsoleTable() {}

    /**
     * One row per cell (server x strategy x concurrency): with several rounds, requests/s, p99 and server
     * CPU per request as {@code median (min-max)}, the other figures as medians; then the legend and the verdict.
     */
    public static String render(Results results) {
        List<Cell> cells = Cell.of(results.runs());
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        cells.forEach(c -> rows.add(row(c)));
        StringBuilder text = new StringBuilder(TextGrid.render(rows, LEFT));
        text.append(legend(results, cells));
        text.append(CostTable.render(cells));
        text.append(spreads(cells));
        text.append(SweepTable.render(
                SweepPairs.of(results),
                cells,
                results.skipped(),
                results.settings() == null ? null : results.settings().sweepResolution()));
        List<String> verdict = Verdict.lines(results);
        if (!verdict.isEmpty()) {
            text.append("verdict (" + Verdict.METHOD + "):\n");
            verdict.forEach(line -> text.append("  ").append(line).append('\n'));
        }
        return text.toString();
    }

    /** A cell's row, in {@link #HEADER}'s order. */
    private static String[] row(Cell c) {
        return new String[] {
            String.valueOf(c.concurrency())
                    + (c.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", c.targetRate())),
            c.strategy() == null ? "-" : c.strategy(),
            c.server(),
            c.engine(),
            String.valueOf(c.rounds()),
            c.requestsPerSecond().format("%,.0f"),
            c.bound() == null ? "-" : String.format(Locale.ROOT, "%,.0f", c.bound()),
            median(c.spread(run -> run.load().ratioToBound()), 100, "%.1f%%"),
            ms(c.spread(r -> r.latency().latencyMs().p50()), false),
            ms(c.spread(r -> r.latency().latencyMs().p99()), true),
            ms(c.spread(r -> r.latency().latencyMs().p999()), false),
            ms(c.spread(r -> r.latency().latencyMs().max()), false),
            serverFigure(
                    c,
                    c.requestCpuMicrosPerRequest() == null
                            ? "-"
                            : c.requestCpuMicrosPerRequest().format("%.1f")),
            c.generatorCpuMicrosPerRequest() == null
                    ? "-"
                    : c.generatorCpuMicrosPerRequest().format("%.1f"),
            serverFigure(c, median(c.spread(run -> run.serverSide().cpuShare()), 100, "%.0f%%")),
            median(c.spread(run -> run.generatorSide().cpuShare()), 100, "%.0f%%"),
            serverFigure(c, median(c.spread(run -> run.serverSide().peakRssMb()), 1, "%.0f")),
            String.format(Locale.ROOT, "%,d", c.failed()),
            c.counts(),
            note(c)
        };
    }

    /** With several rounds: each cell's spread, and the rounds of a cell whose request CPU spread widely. */
    private static String spreads(List<Cell> cells) {
        if (cells.stream().noneMatch(c -> c.rounds() > 1)) {
            return "";
        }
        StringBuilder text = new StringBuilder("spread over the rounds, (max - min) / median:\n");
        for (Cell c : cells) {
            Spread cpu = c.requestCpuMicrosPerRequest();
            text.append(String.format(
                    Locale.ROOT,
                    "  C=%d %s: req/s %.1f %%%s (%d rounds)%n",
                    c.concurrency(),
                    c.label(),
                    100 * c.requestsPerSecond().relativeRange(),
                    cpu == null ? "" : String.format(Locale.ROOT, ", srv us/req %.1f %%", 100 * cpu.relativeRange()),
                    c.rounds()));
            if (cpu != null && cpu.relativeRange() > CostTable.ROUNDS_SHOWN_ABOVE) {
                CostTable.roundLines(c)
                        .forEach(line -> text.append("    ").append(line).append('\n'));
            }
        }
        return text.toString();
    }

    private static String legend(Results results, List<Cell> cells) {
        return columnsLegend(results, cells) + warmupLegend(results) + flagsLegend(results, cells);
    }

    /** What the columns mean. */
    private static String columnsLegend(Results results, List<Cell> cells) {
        Results.Settings settings = results.settings();
        StringBuilder text = new StringBuilder();
        if (cells.stream().anyMatch(c -> c.rounds() > 1)) {
            text.append("rounds: each cell's figures are the median of its rounds; req/s, p99, srv us/req and gen"
                    + " us/req add (min-max).\n");
        }
        text.append("bound: the most requests/s the workload allows (C closed-loop clients, every ")
                .append(settings == null ? "10" : settings.delayEvery())
                .append("th request held ")
                .append(settings == null ? "2000" : settings.delayMs())
                .append(" ms: 5 x C with the defaults).\n")
                .append(
                        cells.stream().anyMatch(Cell::billed)
                                ? "srv us/req: the server's request CPU, its io, worker and carrier threads' CPU time"
                                        + " per request (its JIT, GC and JVM housekeeping apart: the class table"
                                        + " below)"
                                        + (cells.stream().allMatch(Cell::billed)
                                                ? ""
                                                : "; where a server gave no bill by thread class, its whole"
                                                        + " process's")
                                        + "; gen us/req: the generator's CPU time per request"
                                : "srv us/req, gen us/req: the server's and the generator's CPU time (user + system)"
                                        + " per request")
                .append("; srv CPU, gen CPU: the server's and the generator's whole CPU use as a share of their own"
                        + " CPUs (")
                .append(pinning(results.environment()))
                .append(").\n")
                .append("counts: the server's /stats count against the answers the client got (exact, explained by"
                        + " failed or abandoned requests, or MISMATCH).\n");
        return text.toString();
    }

    /** How the auto warm-up ended, over the runs. */
    private static String warmupLegend(Results results) {
        Results.Settings settings = results.settings();
        if (settings == null || !settings.autoWarmup()) {
            return "";
        }
        Spread warmups = Spread.of(
                results.runs().stream().map(run -> run.load().warmupSeconds()).toList());
        return "warm-up: auto, each run's ended on a whole delay period once the server's JIT had settled, at most "
                + settings.warmupSeconds() + " s"
                + (warmups == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ": %.0f s median, %.0f-%.0f s (each run's in results.json)",
                                warmups.median(),
                                warmups.min(),
                                warmups.max()))
                + ".\n";
    }

    /** The open model, missing figures and the flags the table's notes may carry, each only when some run has it. */
    private static String flagsLegend(Results results, List<Cell> cells) {
        StringBuilder text = new StringBuilder();
        if (results.runs().stream().anyMatch(r -> r.open() != null)) {
            text.append("C @R/s: the open model, R requests/s scheduled whatever the answers (C sets the bound);"
                    + " req/s: answered per second; latencies from each request's intended send time, so a server"
                    + " that falls behind shows it.\n");
        }
        if (results.runs().stream()
                .anyMatch(r ->
                        r.serverSide().cpuSeconds() == null || r.serverSide().peakRssMb() == null)) {
            text.append("n/a: the server reports no process figures on its /stats (an older jar, or another server),"
                    + " or has no /stats at all (counts: -).\n");
        }
        if (results.runs().stream().anyMatch(AboveBound::of)) {
            text.append("ARTEFACT: above bound: a reading over 100.5 % of the bound, more than C closed-loop clients"
                    + " can get: the window caught more delayed answers than its share (a window of part of a delay"
                    + " period, a ramp-up shorter than one, or a stall that released a wave inside it; each run's"
                    + " cause is in its notes in results.json and the report): a measurement artefact, not a"
                    + " result.\n");
        }
        if (results.runs().stream().anyMatch(run -> run.serverSide().cpuBound())) {
            text.append(
                    "SERVER-BOUND: the server used 90 % or more of its CPUs: it, not the workload, set the pace.\n");
        }
        if (cells.stream().anyMatch(c -> c.compilingRounds() > 0)) {
            text.append(
                    cells.stream().allMatch(Cell::billed)
                            ? "JIT: the server's JIT compiled for a tenth or more of its CPU in the window: apart"
                                    + " from srv us/req (its request threads'), but its code was still changing (the"
                                    + " class table shows the JIT's share).\n"
                            : "JIT: the server's JIT compiled for a tenth or more of its CPU in the window; its"
                                    + " us/req counts the compiler too (how much varies from run to run:"
                                    + " docs/troubleshooting.md).\n");
        }
        if (cells.stream().anyMatch(c -> c.warmUpCappedRounds() > 0)) {
            text.append("cap: the auto warm-up ended at its cap, the server's JIT not yet settled (the run's note gives"
                    + " its share per period).\n");
        }
        if (cells.stream().anyMatch(c -> c.starvedRounds() > 0)) {
            text.append("STARVED: the server's request threads or the generator's event loops waited on the run queue"
                    + " at least as long as they ran (which side: the run's note).\n");
        }
        if (results.runs().stream().anyMatch(run -> run.generatorSide().cpuBound())) {
            text.append("GENERATOR-BOUND: the load generator used 90 % or more of its CPUs; that figure is the"
                    + " generator's limit as much as the server's.\n");
        }
        return text.toString();
    }

    /** The CPU sets of the environment, for the legend and the report's header. */
    public static String pinning(Results.Environment environment) {
        Results.Pinning pinning = environment == null ? null : environment.cpuPinning();
        if (pinning == null) {
            return "CPU sets not recorded: before pinning, each side's share was taken as half the machine";
        }
        if (pinning.serverCpus() == null && pinning.generatorCpus() == null) {
            return pinning.note() + "; each side's share taken as half the machine";
        }
        return "servers on CPUs " + (pinning.serverCpus() == null ? "of their own" : pinning.serverCpus())
                + ", generator on " + (pinning.generatorCpus() == null ? "any" : pinning.generatorCpus());
    }

    private static String note(Cell c) {
        List<String> flags = new ArrayList<>();
        if (c.aboveBoundRounds() > 0) {
            flags.add("ARTEFACT: above bound" + (c.rounds() > 1 ? " " + c.aboveBoundRounds() + "/" + c.rounds() : ""));
        }
        if (c.serverBoundRounds() > 0) {
            flags.add("SERVER-BOUND" + (c.rounds() > 1 ? " " + c.serverBoundRounds() + "/" + c.rounds() : ""));
        }
        if (c.generatorBoundRounds() > 0) {
            flags.add("GENERATOR-BOUND" + (c.rounds() > 1 ? " " + c.generatorBoundRounds() + "/" + c.rounds() : ""));
        }
        if (c.compilingRounds() > 0) {
            flags.add("JIT" + (c.rounds() > 1 ? " " + c.compilingRounds() + "/" + c.rounds() : ""));
        }
        if (c.warmUpCappedRounds() > 0) {
            flags.add("cap" + (c.rounds() > 1 ? " " + c.warmUpCappedRounds() + "/" + c.rounds() : ""));
        }
        if (c.starvedRounds() > 0) {
            flags.add("STARVED" + (c.rounds() > 1 ? " " + c.starvedRounds() + "/" + c.rounds() : ""));
        }
        return String.join(", ", flags);
    }

    /** One run in a line, printed as each finishes. */
    public static String oneLine(Run r) {
        return String.format(
                Locale.ROOT,
                "C=%d%s: %,.0f req/s%s, p50 %s ms, p99 %s ms, %,d failed, server CPU %s, peak RSS %s,"
                        + " generator CPU %s, counts %s%s%s%s",
                r.concurrency(),
                r.open() == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " open model @%,.0f req/s (%,.0f sent/s, %d"
                                        + " connections, %,d late, %,d never sent)",
                                r.open().targetRate(),
                                r.open().achievedRate(),
                                r.open().connections(),
                                r.open().lateRequests(),
                                r.open().unsentRequests()),
                r.load().requestsPerSecond(),
                r.load().bound() == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " (%.1f%% of the %,.0f bound)%s",
                                100 * r.load().ratioToBound(),
                                r.load().bound(),
                                AboveBound.of(r) ? " [ARTEFACT: above the bound]" : ""),
                ms(r.latency().latencyMs().p50()),
                ms(r.latency().latencyMs().p99()),
                r.load().failed().total(),
                r.serverSide().cpuSeconds() == null
                        ? "n/a"
                        : String.format(
                                Locale.ROOT,
                                "%.1f s (%s us/req, %s of its CPUs)",
                                r.serverSide().cpuSeconds(),
                                figure(r.serverSide().cpuMicrosPerRequest(), 1, "%.1f"),
                                figure(r.serverSide().cpuShare(), 100, "%.0f%%")),
                serverFigure(
                        r.serverSide().peakRssMb(),
                        r.serverSide().peakRssMb() == null
                                ? ""
                                : String.format(
                                        Locale.ROOT, "%.0f MB", r.serverSide().peakRssMb())),
                figure(r.generatorSide().cpuShare(), 100, "%.0f%%") + " of its CPUs",
                counts(r.reconciliation()),
                cost(r.serverSide().cost()) + bill(r.serverSide().cost()),
                r.serverSide().cpuBound() ? " [SERVER-BOUND]" : "",
                r.generatorSide().cpuBound() ? " [GENERATOR-BOUND]" : "");
    }

    private static String cost(ServerCost c) {
        return c == null
                ? ""
                : String.format(
                        Locale.ROOT,
                        ", %s threads, heap after GC %s MB",
                        c.peakThreads() == null ? "-" : String.format(Locale.ROOT, "%,d", c.peakThreads()),
                        figure(c.heapAfterGcMb(), 1, "%.0f"));
    }

    /** ", request CPU 40.1 us/req (JIT 12 %, GC 3 % of the server's CPU)" with the bill by thread class; "" without. */
    private static String bill(ServerCost c) {
        if (c == null || c.requestCpuMicrosPerRequest() == null) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                ", request CPU %.1f us/req (JIT %s, GC %s of the server's CPU)",
                c.requestCpuMicrosPerRequest(),
                figure(c.classShare("jit"), 100, "%.0f %%"),
                figure(c.classShare("gc"), 100, "%.0f %%"));
    }

    static String counts(Results.Reconciliation c) {
        if (c == null) {
            return "-";
        }
        return c.describe();
    }

    static String ms(Double value) {
        if (value == null) {
            return "-";
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.2f", value);
    }

    /** The median in ms; with its range when {@code withRange} and there are several rounds. */
    private static String ms(Spread spread, boolean withRange) {
        if (spread == null) {
            return "-";
        }
        return withRange ? spread.format(spread.median() >= 100 ? "%.0f" : "%.2f") : ms(spread.median());
    }

    private static String figure(Double value, double scale, String format) {
        return value == null ? "-" : String.format(Locale.ROOT, format, scale * value);
    }

    static String median(Spread spread, double scale, String format) {
        return spread == null ? "-" : String.format(Locale.ROOT, format, scale * spread.median());
    }

    /** A server figure compare could not read (a server it did not start, whose process it cannot see) is n/a. */
    static String serverFigure(Object value, String text) {
        return value == null ? "n/a" : text;
    }

    private static String serverFigure(Cell cell, String text) {
        return cell.serverMeasured() ? text : "n/a";
    }
}
