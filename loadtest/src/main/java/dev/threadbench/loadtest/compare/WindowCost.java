package dev.threadbench.loadtest.compare;

import dev.threadbench.common.ThreadClasses;
import dev.threadbench.common.ThreadSnapshot;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.ThreadClassCost;
import dev.threadbench.loadtest.server.ProcessFigures;
import java.util.LinkedHashMap;
import java.util.Map;

/** A measured window's cost to the server, from what {@link CostSampler} read at its edges and between. */
final class WindowCost {

    private WindowCost() {}

    /**
     * A peak since the process started that rose during the window is the window's own, and exact; otherwise
     * the window's peak is the highest sample (every 500 ms: a shorter spike may be missed).
     */
    static Long peak(Long peakAtStart, Long peakAtEnd, long sampled) {
        if (peakAtStart != null && peakAtEnd != null && peakAtEnd > peakAtStart) {
            return peakAtEnd;
        }
        return sampled > 0 ? sampled : null;
    }

    /**
     * The window's cost at the client's {@code requestsPerSecond}: per request over the server's threads' own edges
     * where compare read them (its CPU from its /proc), else over its /stats reads' (whose window is theirs: an
     * overloaded server answers them late). Heap, GC and JIT come from /stats either way.
     */
    static ServerCost of(CostSampler.Window w, double requestsPerSecond) {
        ProcessFigures a = w.first();
        ProcessFigures b = w.last();
        double requests = requestsPerSecond * w.seconds();
        Long cpuMs = delta(a.cpuMs(), b.cpuMs());
        Long userMs = delta(a.cpuUserMs(), b.cpuUserMs());
        Long systemMs = delta(a.cpuSystemMs(), b.cpuSystemMs());
        Map<String, ThreadClassCost> classes = null;
        if (w.firstThreads() != null && w.lastThreads() != null) {
            ThreadSnapshot start = w.firstThreads().threads();
            ThreadSnapshot end = w.lastThreads().threads();
            requests = requestsPerSecond
                    * (w.lastThreads().nanos() - w.firstThreads().nanos())
                    / 1e9;
            cpuMs = (end.processCpuNanos() - start.processCpuNanos()) / 1_000_000;
            userMs = (end.userTicks() - start.userTicks()) * 10;
            systemMs = (end.systemTicks() - start.systemTicks()) * 10;
            classes = over(
                    ThreadSnapshot.between(start, end, ThreadClasses.table(w.kind() == null ? "" : w.kind())),
                    requests);
        } else if (w.first().threadClasses() != null && w.last().threadClasses() != null) {
            classes = threads(w.first().threadClasses(), w.last().threadClasses(), requests);
        }
        Long peakRss = peak(a.rssPeakBytes(), b.rssPeakBytes(), w.sampledPeakRssBytes());
        Long gcPause = delta(a.gcPauseMs(), b.gcPauseMs());
        Long jit = delta(a.jitMs(), b.jitMs());
        return new ServerCost(
                cpuMs == null ? null : RunAnalysis.round(cpuMs / 1000.0, 3),
                perRequest(cpuMs, 1000, requests),
                perRequest(userMs, 1000, requests),
                perRequest(systemMs, 1000, requests),
                peak(a.threadsPeak(), b.threadsPeak(), w.sampledPeakThreads()),
                perRequest(delta(a.contextSwitches(), b.contextSwitches()), 1, requests),
                peakRss == null ? null : mb(peakRss),
                heapAfterGc(b),
                b.heapCommittedBytes() == null ? null : mb(b.heapCommittedBytes()),
                delta(a.gcCount(), b.gcCount()),
                gcPause == null || w.seconds() <= 0 ? null : RunAnalysis.round(gcPause / w.seconds(), 2),
                jit == null || w.seconds() <= 0 ? null : RunAnalysis.round(jit / w.seconds(), 2),
                w.samples(),
                classes);
    }

    /** A window's bill by class, already the differences over it, per request over {@code requests}. */
    static Map<String, ThreadClassCost> over(Map<String, ThreadClasses.Cost> window, double requests) {
        Map<String, ProcessFigures.ClassFigures> zero = new LinkedHashMap<>();
        Map<String, ProcessFigures.ClassFigures> end = ProcessFigures.ClassFigures.of(window);
        end.forEach((name, c) -> zero.put(
                name,
                new ProcessFigures.ClassFigures(
                        0.0,
                        0.0,
                        0.0,
                        c.runQueueWaitMs() == null ? null : 0.0,
                        c.voluntaryContextSwitches() == null ? null : 0L,
                        c.involuntaryContextSwitches() == null ? null : 0L,
                        0L)));
        return threads(zero, end, requests);
    }

    /**
     * Each thread class over the window: its figures at the end less those at the start, per request over
     * {@code requests}; live threads at the end. Null unless both edges have the bill. A class's threads that ended in
     * the window leave it (its difference can be negative) for {@code exited}, so the classes still add up to the
     * process's CPU.
     */
    static Map<String, ThreadClassCost> threads(
            Map<String, ProcessFigures.ClassFigures> start,
            Map<String, ProcessFigures.ClassFigures> end,
            double requests) {
        if (start == null || end == null) {
            return null;
        }
        Map<String, ThreadClassCost> bill = new LinkedHashMap<>();
        end.forEach((name, b) -> {
            ProcessFigures.ClassFigures a = start.get(name);
            Double cpu = delta(a == null ? null : a.cpuMs(), b.cpuMs());
            Double wait = delta(a == null ? null : a.runQueueWaitMs(), b.runQueueWaitMs());
            Long voluntary = a == null ? null : delta(a.voluntaryContextSwitches(), b.voluntaryContextSwitches());
            Long involuntary = a == null ? null : delta(a.involuntaryContextSwitches(), b.involuntaryContextSwitches());
            bill.put(
                    name,
                    new ThreadClassCost(
                            round3(cpu),
                            round3(delta(a == null ? null : a.userMs(), b.userMs())),
                            round3(delta(a == null ? null : a.systemMs(), b.systemMs())),
                            round3(wait),
                            voluntary,
                            involuntary,
                            b.threads(),
                            perRequest(cpu, requests),
                            perRequest(wait, requests)));
        });
        return bill;
    }

    private static Double delta(Double start, Double end) {
        return start == null || end == null ? null : end - start;
    }

    private static Double round3(Double value) {
        return value == null ? null : RunAnalysis.round(value, 3);
    }

    /** ms over the window, in us per request. */
    private static Double perRequest(Double ms, double requests) {
        return ms == null || requests <= 0 ? null : RunAnalysis.round(ms * 1000 / requests, 2);
    }

    /** Null before the first collection, when there is no "after GC" yet (the JDK then reports 0). */
    private static Double heapAfterGc(ProcessFigures p) {
        return p.heapAfterGcBytes() == null || p.gcCount() == null || p.gcCount() == 0
                ? null
                : mb(p.heapAfterGcBytes());
    }

    static Long delta(Long start, Long end) {
        return start == null || end == null ? null : end - start;
    }

    private static Double perRequest(Long amount, double scale, double requests) {
        return amount == null || requests <= 0 ? null : RunAnalysis.round(amount * scale / requests, 2);
    }

    private static double mb(long bytes) {
        return RunAnalysis.round(bytes / 1048576.0, 1);
    }
}
