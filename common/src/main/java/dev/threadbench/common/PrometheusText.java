package dev.threadbench.common;

import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /metrics}: the figures {@code /stats} reports, in Prometheus's text exposition format 0.0.4, in base
 * units (seconds, bytes). Rendered from the counters the servers already keep, so a request costs nothing more; a
 * scrape reads the bill by thread class, so the servers serve it on {@link ServerStats#THREAD_READER}. A figure that
 * cannot be read is left out, never written as 0. What each metric means: docs/metrics.md.
 */
public final class PrometheusText {

    /** The Content-Type of the 0.0.4 text format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder text = new StringBuilder(4096);

    private PrometheusText() {}

    /**
     * The exposition: the server's counters ({@code requests}, {@code delayed}, {@code inFlight}), the process's
     * {@code figures}, and its {@code bill} by thread class (null: not read, left out).
     */
    public static String render(
            String server,
            String strategy,
            long requests,
            long delayed,
            long inFlight,
            ProcessCost.Figures figures,
            Map<String, ThreadClasses.Cost> bill) {
        PrometheusText out = new PrometheusText();
        out.family("threadbench_info", "gauge", "The server and the way it waits, as labels; always 1.");
        out.sample("threadbench_info", "server=\"" + server + "\",strategy=\"" + strategy + "\"", 1);
        out.single("threadbench_requests_total", "counter", "Requests to / received.", requests);
        out.single("threadbench_delayed_requests_total", "counter", "Requests to / answered late.", delayed);
        out.single(
                "threadbench_requests_in_flight",
                "gauge",
                "Requests to / received and not yet answered (nearly all of them delayed ones).",
                inFlight);
        out.single(
                "process_cpu_seconds_total",
                "counter",
                "CPU time of the process, all threads.",
                seconds(figures.cpuNanos()));
        if (bill != null) {
            out.threadClasses(bill);
        }
        out.process(figures);
        return out.text.toString();
    }

    /** CPU time, run-queue wait and live threads by thread class. */
    private void threadClasses(Map<String, ThreadClasses.Cost> bill) {
        byClass(
                "threadbench_thread_cpu_seconds_total",
                "counter",
                "CPU time by thread class (exited: threads that ended).",
                bill,
                c -> c.cpuMs() / 1e3);
        byClass(
                "threadbench_thread_run_queue_wait_seconds_total",
                "counter",
                "Time runnable but waiting for a CPU, by thread class (live threads only).",
                bill,
                c -> c.runQueueWaitMs() == null ? null : c.runQueueWaitMs() / 1e3);
        byClass("threadbench_threads", "gauge", "Live threads by thread class.", bill, c -> (double) c.threads());
    }

    /** The process: context switches, memory, GC, JIT and threads; a figure that cannot be read is left out. */
    private void process(ProcessCost.Figures figures) {
        if (figures.voluntaryContextSwitches() != null && figures.involuntaryContextSwitches() != null) {
            family(
                    "threadbench_context_switches_total",
                    "counter",
                    "Context switches of the process, all threads (getrusage), by kind.");
            sample("threadbench_context_switches_total", "kind=\"voluntary\"", figures.voluntaryContextSwitches());
            sample("threadbench_context_switches_total", "kind=\"involuntary\"", figures.involuntaryContextSwitches());
        }
        if (figures.rssBytes() != null) {
            single("process_resident_memory_bytes", "gauge", "Resident memory (VmRSS).", figures.rssBytes());
        }
        single(
                "threadbench_heap_after_gc_bytes",
                "gauge",
                "Heap in use right after the last collection of each heap pool.",
                figures.heapAfterGcBytes());
        single("threadbench_heap_used_bytes", "gauge", "Heap in use now.", figures.heapUsedBytes());
        single(
                "threadbench_gc_pause_seconds_total",
                "counter",
                "Stop-the-world GC pause time.",
                figures.gcPauseMs() / 1e3);
        single("threadbench_gc_pauses_total", "counter", "Stop-the-world GC pauses.", figures.gcCount());
        if (figures.jitMs() != null) {
            single(
                    "threadbench_jit_compilation_seconds_total",
                    "counter",
                    "Time the JIT compilers spent compiling.",
                    figures.jitMs() / 1e3);
        }
        single("jvm_threads_live_threads", "gauge", "Live JVM threads.", figures.threads());
    }

    private void family(String name, String type, String help) {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n');
        text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private void single(String name, String type, String help, double value) {
        family(name, type, help);
        sample(name, null, value);
    }

    private void byClass(
            String name,
            String type,
            String help,
            Map<String, ThreadClasses.Cost> bill,
            java.util.function.Function<ThreadClasses.Cost, Double> value) {
        family(name, type, help);
        bill.forEach((threadClass, cost) -> {
            Double v = value.apply(cost);
            if (v != null) {
                sample(name, "class=\"" + threadClass + "\"", Math.max(0, v));
            }
        });
    }

    private void sample(String name, String labels, double value) {
        text.append(name);
        if (labels != null) {
            text.append('{').append(labels).append('}');
        }
        text.append(' ');
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            text.append((long) value);
        } else {
            text.append(String.format(Locale.ROOT, "%.6f", value));
        }
        text.append('\n');
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
