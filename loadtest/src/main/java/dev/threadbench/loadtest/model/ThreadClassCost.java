package dev.threadbench.loadtest.model;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One thread class over a window (ms; per request over the window's requests): CPU ({@code cpuMs}: time on the CPU,
 * from schedstat; {@code userMs} and {@code systemMs} from stat, in 10 ms ticks), time runnable but waiting for a
 * CPU ({@code runQueueWaitMs}; null for {@code exited}, whose threads took it with them), context switches, and the
 * live threads at the window's end.
 */
public record ThreadClassCost(
        Double cpuMs,
        Double userMs,
        Double systemMs,
        Double runQueueWaitMs,
        Long voluntaryContextSwitches,
        Long involuntaryContextSwitches,
        Long threads,
        Double cpuMicrosPerRequest,
        Double runQueueWaitMicrosPerRequest) {

    /** The classes whose threads serve requests: the request CPU is theirs. */
    public static final List<String> REQUEST_CLASSES = List.of("io", "worker", "carrier");
    /** Every class, in the order the tables and the report's bars show them. */
    public static final List<String> CLASSES = List.of("io", "worker", "carrier", "gc", "jit", "other", "exited");

    /**
     * The figure summed over {@code classes} (a class absent counts 0); null without a bill or when one's figure is
     * null.
     */
    public static Double sum(
            Map<String, ThreadClassCost> bill, List<String> classes, Function<ThreadClassCost, Double> figure) {
        if (bill == null) {
            return null;
        }
        double sum = 0;
        for (String name : classes) {
            ThreadClassCost c = bill.get(name);
            Double value = c == null ? Double.valueOf(0) : figure.apply(c);
            if (value == null) {
                return null;
            }
            sum += value;
        }
        return sum;
    }
}
