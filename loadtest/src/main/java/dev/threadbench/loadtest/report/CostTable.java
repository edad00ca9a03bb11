package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.ThreadClassCost;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What each cell cost the server, as the server reported it on /stats over the measured windows (medians of the
 * rounds): CPU per request split into user and system, peak threads, context switches per request, peak RSS,
 * heap after GC, GC pauses and JIT compilation. Empty when no server reported its process figures.
 */
final class CostTable {

    private static final String[] HEADER = {
        "C",
        "strategy",
        "server",
        "us/req user",
        "us/req sys",
        "threads",
        "ctx sw/req",
        "RSS MB",
        "heap after GC MB",
        "GC ms/s",
        "JIT ms/s"
    };

    private CostTable() {}

    static String render(List<Cell> cells) {
        if (cells.stream().noneMatch(Cell::costMeasured)) {
            return "";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Cell c : cells) {
            rows.add(new String[] {
                String.valueOf(c.concurrency()),
                c.strategy() == null ? "-" : c.strategy(),
                c.server(),
                median(c, ServerCost::cpuUserMicrosPerRequest, "%.1f"),
                median(c, ServerCost::cpuSystemMicrosPerRequest, "%.1f"),
                median(
                        c,
                        cost -> cost.peakThreads() == null
                                ? null
                                : cost.peakThreads().doubleValue(),
                        "%,.0f"),
                median(c, ServerCost::contextSwitchesPerRequest, "%.2f"),
                median(c, ServerCost::peakRssMb, "%,.0f"),
                median(c, ServerCost::heapAfterGcMb, "%,.0f"),
                median(c, ServerCost::gcPauseMsPerSecond, "%.1f"),
                median(c, ServerCost::jitMsPerSecond, "%.1f")
            });
        }
        return "\nserver cost, as each server reports it on /stats over the measured window (medians of the rounds;"
                + " n/a: not"
                + " reported):\n" + TextGrid.render(rows, Set.of(1, 2))
                + "threads: the most live threads in the window; ctx sw: voluntary + involuntary context switches;"
                + " heap after GC:"
                + " live data at the window's end;\nGC ms/s: collection pauses per second of the window; JIT ms/s:"
                + " compilation"
                + " per second of the window (CPU the server spent on itself: in us/req user and sys, not in the"
                + " request"
                + " CPU).\n" + classTable(cells);
    }

    private static final String[] CLASS_HEADER = {
        "C",
        "strategy",
        "server",
        "io",
        "worker",
        "carrier",
        "request",
        "gc",
        "jit",
        "other",
        "exited",
        "JIT %",
        "GC %",
        "wait us/req",
        "gen wait us/req"
    };

    /**
     * The server's CPU per request by thread class (medians of the rounds), its request CPU (io + worker + carrier),
     * the JIT's and the GC's shares of its CPU, and the run-queue wait per request of its request threads and of the
     * generator's.
     */
    static String classTable(List<Cell> cells) {
        if (cells.stream().noneMatch(c -> c.cost(ServerCost::requestCpuMicrosPerRequest) != null)) {
            return "";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(CLASS_HEADER);
        for (Cell c : cells) {
            List<String> row = new ArrayList<>(
                    List.of(String.valueOf(c.concurrency()), c.strategy() == null ? "-" : c.strategy(), c.server()));
            for (String threadClass : List.of("io", "worker", "carrier")) {
                row.add(ConsoleTable.median(
                        c.threadClass(threadClass, ThreadClassCost::cpuMicrosPerRequest), 1, "%.1f"));
            }
            row.add(ConsoleTable.median(c.cost(ServerCost::requestCpuMicrosPerRequest), 1, "%.1f"));
            for (String threadClass : List.of("gc", "jit", "other", "exited")) {
                row.add(ConsoleTable.median(
                        c.threadClass(threadClass, ThreadClassCost::cpuMicrosPerRequest), 1, "%.1f"));
            }
            row.add(ConsoleTable.median(c.cost(cost -> cost.classShare("jit")), 100, "%.1f"));
            row.add(ConsoleTable.median(c.cost(cost -> cost.classShare("gc")), 100, "%.1f"));
            row.add(ConsoleTable.median(c.cost(ServerCost::requestRunQueueWaitMicrosPerRequest), 1, "%.1f"));
            row.add(ConsoleTable.median(
                    c.generatorThreads(ThreadClassCost.REQUEST_CLASSES, ThreadClassCost::runQueueWaitMicrosPerRequest),
                    1,
                    "%.1f"));
            rows.add(row.toArray(String[]::new));
        }
        return "\nserver CPU by thread class, us per request over the measured window (medians of the rounds; -: not"
                + " reported):\n"
                + TextGrid.render(rows, Set.of(1, 2))
                + "request = io + worker + carrier, the srv us/req above; io: I/O threads, event loops, acceptors;"
                + " worker: worker"
                + " pools; carrier: the\nvirtual threads' carriers; other: the JVM's housekeeping; exited: threads"
                + " that ended in"
                + " the window; JIT %, GC %: their share of the\nserver's CPU; wait us/req: the request threads' time"
                + " runnable"
                + " but waiting for a CPU, per request; gen wait: the generator's event loops'.\n";
    }

    /** A cell whose request CPU spread more than this over its rounds gets a line per round under its spread. */
    static final double ROUNDS_SHOWN_ABOVE = 0.10;

    /**
     * One line per round of {@code cell}, in round order, for a reader to see which round moved and which class moved
     * it: "round 2: request 39.7 = io 22.1 + worker 17.6 + carrier 0.0 us/req; jit 1.2, gc 0.3, other 0.1, exited
     * 0.0; JIT 3.1 % of the server's CPU; warm-up 8 s".
     */
    static List<String> roundLines(Cell cell) {
        List<String> lines = new ArrayList<>();
        cell.runs().stream().sorted(Comparator.comparingInt(Run::round)).forEach(run -> {
            ServerCost cost = run.serverSide().cost();
            Map<String, ThreadClassCost> bill = cost == null ? null : cost.threads();
            if (bill == null) {
                return;
            }
            lines.add(String.format(
                    Locale.ROOT,
                    "round %d: request %s = io %s + worker %s + carrier %s us/req; jit %s, gc %s, other %s,"
                            + " exited %s; JIT %s of the server's CPU%s",
                    run.round(),
                    us(cost.requestCpuMicrosPerRequest()),
                    us(bill, "io"),
                    us(bill, "worker"),
                    us(bill, "carrier"),
                    us(bill, "jit"),
                    us(bill, "gc"),
                    us(bill, "other"),
                    us(bill, "exited"),
                    cost.classShare("jit") == null
                            ? "-"
                            : String.format(Locale.ROOT, "%.1f %%", 100 * cost.classShare("jit")),
                    run.load().warmupSeconds() == null
                            ? ""
                            : String.format(
                                    Locale.ROOT, "; warm-up %.0f s", run.load().warmupSeconds())));
        });
        return lines;
    }

    private static String us(Map<String, ThreadClassCost> bill, String threadClass) {
        ThreadClassCost c = bill.get(threadClass);
        return c == null ? "-" : us(c.cpuMicrosPerRequest());
    }

    private static String us(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String median(Cell cell, Function<ServerCost, Double> figure, String format) {
        Spread spread = cell.cost(figure);
        return ConsoleTable.serverFigure(spread, ConsoleTable.median(spread, 1, format));
    }
}
