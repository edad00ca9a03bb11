package dev.threadbench.loadtest.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadbench.common.ThreadClasses;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's own process figures, the {@code "process"} object of its GET /stats: CPU time in ms, threads, heap, GC
 * and JIT compile time (JDK management beans), RSS and context switches ({@code /proc/self/status}, null off Linux).
 * Absent (null) from servers that do not report them: older jars, other targets. {@code threadClasses}: the CPU bill by
 * thread class ({@link ThreadClasses}), which a server gives when asked ({@code /stats?threads}); null otherwise.
 */
public record ProcessFigures(
        Long cpuMs,
        Long cpuUserMs,
        Long cpuSystemMs,
        Long threads,
        Long threadsPeak,
        Long heapUsedBytes,
        Long heapCommittedBytes,
        Long heapAfterGcBytes,
        Long gcCount,
        Long gcPauseMs,
        Long rssBytes,
        Long rssPeakBytes,
        Long voluntaryContextSwitches,
        Long involuntaryContextSwitches,
        Long jitMs,
        Map<String, ClassFigures> threadClasses) {

    /** One thread class's cumulative figures, as /stats?threads gives them (ms; null where unknown). */
    public record ClassFigures(
            Double cpuMs,
            Double userMs,
            Double systemMs,
            Double runQueueWaitMs,
            Long voluntaryContextSwitches,
            Long involuntaryContextSwitches,
            Long threads) {

        public static ClassFigures of(ThreadClasses.Cost c) {
            return new ClassFigures(
                    c.cpuMs(),
                    (double) c.userMs(),
                    (double) c.systemMs(),
                    c.runQueueWaitMs(),
                    c.voluntaryContextSwitches(),
                    c.involuntaryContextSwitches(),
                    (long) c.threads());
        }

        /** A bill as {@link ThreadClasses#read} gives it (this JVM's own, the generator's); null for null. */
        public static Map<String, ClassFigures> of(Map<String, ThreadClasses.Cost> bill) {
            if (bill == null) {
                return null;
            }
            Map<String, ClassFigures> figures = new LinkedHashMap<>();
            bill.forEach((name, cost) -> figures.put(name, of(cost)));
            return figures;
        }
    }

    /** The figures in {@code stats}' "process" object; null when it has none. */
    public static ProcessFigures of(JsonNode stats) {
        JsonNode p = stats.path("process");
        if (!p.isObject()) {
            return null;
        }
        return new ProcessFigures(
                number(p, "cpuMs"),
                number(p, "cpuUserMs"),
                number(p, "cpuSystemMs"),
                number(p, "threads"),
                number(p, "threadsPeak"),
                number(p, "heapUsedBytes"),
                number(p, "heapCommittedBytes"),
                number(p, "heapAfterGcBytes"),
                number(p, "gcCount"),
                number(p, "gcPauseMs"),
                number(p, "rssBytes"),
                number(p, "rssPeakBytes"),
                number(p, "voluntaryContextSwitches"),
                number(p, "involuntaryContextSwitches"),
                number(p, "jitMs"),
                classes(p.path("threadClasses")));
    }

    private static Map<String, ClassFigures> classes(JsonNode bill) {
        if (!bill.isObject()) {
            return null;
        }
        Map<String, ClassFigures> classes = new LinkedHashMap<>();
        bill.properties().forEach(entry -> {
            JsonNode c = entry.getValue();
            classes.put(
                    entry.getKey(),
                    new ClassFigures(
                            decimal(c, "cpuMs"),
                            decimal(c, "userMs"),
                            decimal(c, "systemMs"),
                            decimal(c, "runQueueWaitMs"),
                            number(c, "voluntaryContextSwitches"),
                            number(c, "involuntaryContextSwitches"),
                            number(c, "threads")));
        });
        return classes;
    }

    private static Double decimal(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && value.isNumber() ? value.asDouble() : null;
    }

    private static Long number(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && value.isNumber() ? value.asLong() : null;
    }

    /** Voluntary plus involuntary context switches; null when either is unknown. */
    public Long contextSwitches() {
        return voluntaryContextSwitches == null || involuntaryContextSwitches == null
                ? null
                : voluntaryContextSwitches + involuntaryContextSwitches;
    }
}
