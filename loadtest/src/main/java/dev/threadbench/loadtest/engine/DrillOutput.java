package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.base.RunFailure;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The global summary of {@code drill --stats} (0.8/0.9: labels padded to 25 columns, times rounded to
 * whole ms, or ns with --nanosec). Per-step sections, which carry the step name before the label, and
 * colour codes are ignored. Latencies in milliseconds.
 */
public record DrillOutput(
        double durationSeconds,
        long totalRequests,
        long successfulRequests,
        long failedRequests,
        double requestsPerSecond,
        double medianMs,
        double averageMs,
        double stdDevMs,
        Double p99Ms,
        Double p995Ms,
        Double p999Ms) {

    /**
     * What drill 0.8.x and 0.9.0 panic with, after the run and before the summary, when a request took longer
     * than their --stats histogram holds: it records microseconds and is bounded at 3,600,000, which HdrHistogram
     * rounds up to 4,194,303 (about 4.19 s). A timed-out request is recorded at the timeout.
     */
    static final String HISTOGRAM_PANIC = "ValueOutOfRangeResizeDisabled";

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern LINE = Pattern.compile(
            "^(Time taken for tests|Total requests|Successful requests|Failed requests|Requests per second"
                    + "|Median time per request|Average time per request|Sample standard deviation"
                    + "|99\\.0'th percentile|99\\.5'th percentile|99\\.9'th percentile)\\s+(.+?)\\s*$");

    /**
     * The summary of a finished {@code drill --stats} run (stdout and stderr together), or a {@link RunFailure}
     * whose one line says why there is none: drill's histogram panic, or another non-zero exit status.
     */
    public static DrillOutput of(String output, int exitStatus) {
        if (exitStatus != 0 && output.contains(HISTOGRAM_PANIC)) {
            throw new RunFailure("drill exited with status " + exitStatus + " and no summary: it panicked on a request"
                    + " slower than its --stats histogram holds (about 4.19 s in drill 0.8.x and 0.9.0; a timed-out"
                    + " request counts at the timeout); a --timeout of 3 s or less keeps it in range");
        }
        if (exitStatus != 0) {
            throw new RunFailure("drill exited with status " + exitStatus + ": " + cause(output));
        }
        return parse(output);
    }

    /**
     * The panic line ("thread 'main' panicked at 'MESSAGE', FILE" before Rust 1.73; "... panicked at FILE:" then
     * MESSAGE on the next line since), else the last line.
     */
    private static String cause(String output) {
        List<String> lines = output.strip().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.contains(" panicked at ")) {
                return line.endsWith(":") && i + 1 < lines.size() ? line + " " + lines.get(i + 1) : line;
            }
        }
        return lines.isEmpty() ? "(no output)" : lines.getLast();
    }

    public static DrillOutput parse(String text) {
        Map<String, String> values = new HashMap<>();
        for (String raw : ANSI.matcher(text).replaceAll("").split("\\R")) {
            Matcher m = LINE.matcher(raw);
            if (m.matches()) {
                values.put(m.group(1), m.group(2)); // the global section comes last: it wins
            }
        }
        for (String required : new String[] {
            "Time taken for tests",
            "Total requests",
            "Successful requests",
            "Failed requests",
            "Requests per second",
            "Median time per request",
            "Average time per request"
        }) {
            if (!values.containsKey(required)) {
                throw new IllegalStateException("not drill --stats output: no '" + required + "' line");
            }
        }
        Double stdDev = optionalMillis(values.get("Sample standard deviation"));
        return new DrillOutput(
                number(values.get("Time taken for tests")),
                (long) number(values.get("Total requests")),
                (long) number(values.get("Successful requests")),
                (long) number(values.get("Failed requests")),
                number(values.get("Requests per second")),
                millis(values.get("Median time per request")),
                millis(values.get("Average time per request")),
                stdDev == null ? 0 : stdDev,
                optionalMillis(values.get("99.0'th percentile")),
                optionalMillis(values.get("99.5'th percentile")),
                optionalMillis(values.get("99.9'th percentile")));
    }

    private static double number(String value) {
        Matcher m = Pattern.compile("^([\\d.]+)").matcher(value);
        if (!m.find()) {
            throw new IllegalStateException("not a number in drill output: " + value);
        }
        return Double.parseDouble(m.group(1));
    }

    private static Double optionalMillis(String value) {
        return value == null ? null : millis(value);
    }

    /** "12ms" or, with --nanosec, "12345ns". */
    static double millis(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.endsWith("ns")) {
            return number(v) / 1_000_000.0;
        }
        if (v.endsWith("ms")) {
            return number(v);
        }
        throw new IllegalStateException("not a drill time: " + value);
    }
}
