package dev.threadbench.loadtest.compare;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The server's own process figures, the {@code "process"} object of its GET /stats: CPU time in ms, threads,
 * heap, GC and JIT compile time (JDK management beans), RSS and context switches ({@code /proc/self/status}, null off Linux).
 * Absent (null) from servers that do not report them: older jars, other targets.
 */
record ProcessFigures(Long cpuMs, Long cpuUserMs, Long cpuSystemMs, Long threads, Long threadsPeak, Long heapUsedBytes,
                      Long heapCommittedBytes, Long heapAfterGcBytes, Long gcCount, Long gcPauseMs, Long rssBytes,
                      Long rssPeakBytes, Long voluntaryContextSwitches, Long involuntaryContextSwitches, Long jitMs) {

    /** The figures in {@code stats}' "process" object; null when it has none. */
    static ProcessFigures of(JsonNode stats) {
        JsonNode p = stats.path("process");
        if (!p.isObject()) {
            return null;
        }
        return new ProcessFigures(number(p, "cpuMs"), number(p, "cpuUserMs"), number(p, "cpuSystemMs"), number(p, "threads"),
                number(p, "threadsPeak"), number(p, "heapUsedBytes"), number(p, "heapCommittedBytes"),
                number(p, "heapAfterGcBytes"), number(p, "gcCount"), number(p, "gcPauseMs"), number(p, "rssBytes"),
                number(p, "rssPeakBytes"), number(p, "voluntaryContextSwitches"), number(p, "involuntaryContextSwitches"),
                number(p, "jitMs"));
    }

    private static Long number(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && value.isNumber() ? value.asLong() : null;
    }

    /** Voluntary plus involuntary context switches; null when either is unknown. */
    Long contextSwitches() {
        return voluntaryContextSwitches == null || involuntaryContextSwitches == null ? null
                : voluntaryContextSwitches + involuntaryContextSwitches;
    }
}
