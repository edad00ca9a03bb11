package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.model.LatencySummary;
import java.io.PrintStream;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Prints a run the way {@code drill --stats} prints its summary (same labels, same 25-column layout,
 * same rounding to whole milliseconds), then this runner's extra lines: p50, p90, max, failures by
 * cause, connections opened, event loops used and the runner's own CPU time over the measured window; in the
 * open model, the rate achieved and how far the client fell behind its schedule.
 */
public final class DrillSummary {

    private DrillSummary() {}

    public static void print(LoadResult result, PrintStream out) {
        LatencySummary latency = LatencySummary.of(result.latencyMicros());
        out.println();
        line(out, "Time taken for tests", String.format(Locale.ROOT, "%.1f seconds", result.durationSeconds()));
        line(out, "Total requests", String.valueOf(result.requests()));
        line(out, "Successful requests", String.valueOf(result.successes()));
        line(out, "Failed requests", String.valueOf(result.failed()));
        line(out, "Requests per second", String.format(Locale.ROOT, "%.2f [#/sec]", result.requestsPerSecond()));
        line(out, "Median time per request", wholeMs(latency.p50()));
        line(out, "Average time per request", wholeMs(latency.mean()));
        line(out, "Sample standard deviation", wholeMs(latency.sampleStdDev()));
        line(out, "99.0'th percentile", wholeMs(latency.p99()));
        line(out, "99.5'th percentile", wholeMs(latency.p995()));
        line(out, "99.9'th percentile", wholeMs(latency.p999()));
        line(out, "50.0'th percentile", preciseMs(latency.p50()));
        line(out, "90.0'th percentile", preciseMs(latency.p90()));
        line(out, "Maximum time per request", preciseMs(latency.max()));
        StringJoiner causes = new StringJoiner(", ");
        result.failures().forEach((cause, count) -> causes.add(cause.key() + " " + count));
        line(out, "Failures by cause", causes.toString());
        line(out, "Connections opened", String.valueOf(result.connectionsOpened()));
        line(out, "Event loops used", result.eventLoops() + " (" + result.transport() + ")");
        line(
                out,
                "Client CPU",
                String.format(
                        Locale.ROOT,
                        "%.1f s (%.2f cores)",
                        result.generatorCpuSeconds(),
                        result.durationSeconds() > 0 ? result.generatorCpuSeconds() / result.durationSeconds() : 0));
        if (result.firstOtherFailure() != null) {
            line(out, "First other failure", result.firstOtherFailure());
        }
        LoadResult.Open open = result.open();
        if (open != null) {
            line(
                    out,
                    "Achieved rate",
                    String.format(
                            Locale.ROOT,
                            "%.1f req/s sent (target %.1f); requests per second above:" + " answered",
                            result.achievedRate(),
                            open.targetRate()));
            line(
                    out,
                    "Behind schedule",
                    String.format(
                            Locale.ROOT,
                            "%d sent > %d ms late (latest %.1f ms), %d never sent",
                            open.late(),
                            LoadResult.Open.LATE_MILLIS,
                            open.maxLateMs(),
                            open.unsent()));
        }
    }

    private static void line(PrintStream out, String label, String value) {
        out.println(String.format(Locale.ROOT, "%-25s %s", label, value));
    }

    /** drill's format_time: rounded to a whole millisecond. */
    static String wholeMs(double ms) {
        return Math.round(ms) + "ms";
    }

    static String preciseMs(double ms) {
        return String.format(Locale.ROOT, "%.2fms", ms);
    }
}
