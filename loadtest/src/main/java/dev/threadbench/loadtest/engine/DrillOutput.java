package dev.threadbench.loadtest.engine;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The global summary of {@code drill --stats} (0.8/0.9: labels padded to 25 columns, times rounded to
 * whole ms, or ns with --nanosec). Per-step sections, which carry the step name before the label, and
 * colour codes are ignored. Latencies in milliseconds.
 */
public record DrillOutput(double durationSeconds, long totalRequests, long successfulRequests, long failedRequests,
                          double requestsPerSecond, double medianMs, double averageMs, double stdDevMs,
                          Double p99Ms, Double p995Ms, Double p999Ms) {

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern LINE = Pattern.compile(
            "^(Time taken for tests|Total requests|Successful requests|Failed requests|Requests per second"
                    + "|Median time per request|Average time per request|Sample standard deviation"
                    + "|99\\.0'th percentile|99\\.5'th percentile|99\\.9'th percentile)\\s+(.+?)\\s*$");

    public static DrillOutput parse(String text) {
        Map<String, String> values = new HashMap<>();
        for (String raw : ANSI.matcher(text).replaceAll("").split("\\R")) {
            Matcher m = LINE.matcher(raw);
            if (m.matches()) {
                values.put(m.group(1), m.group(2)); // the global section comes last: it wins
            }
        }
        for (String required : new String[] {"Time taken for tests", "Total requests", "Successful requests",
                "Failed requests", "Requests per second", "Median time per request", "Average time per request"}) {
            if (!values.containsKey(required)) {
                throw new IllegalStateException("not drill --stats output: no '" + required + "' line");
            }
        }
        return new DrillOutput(number(values.get("Time taken for tests")), (long) number(values.get("Total requests")),
                (long) number(values.get("Successful requests")), (long) number(values.get("Failed requests")),
                number(values.get("Requests per second")), millis(values.get("Median time per request")),
                millis(values.get("Average time per request")), optionalMillis(values.get("Sample standard deviation")) == null
                        ? 0 : optionalMillis(values.get("Sample standard deviation")),
                optionalMillis(values.get("99.0'th percentile")), optionalMillis(values.get("99.5'th percentile")),
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
