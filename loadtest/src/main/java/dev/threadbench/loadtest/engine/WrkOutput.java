package dev.threadbench.loadtest.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.model.LatencySummary;
import java.util.List;

/**
 * What {@link WrkEngine#SCRIPT}'s done() hook prints as its last line: wrk's own summary, its errors and
 * its latency percentiles, as JSON, in microseconds.
 *
 * @param errors wrk's socket errors by kind, and {@code status}: answers with a status of 400 or more
 */
public record WrkOutput(long durationMicros, long requests, Errors errors, Latency latencyMicros) {

    public record Errors(long connect, long read, long write, long status, long timeout) {}

    /** {@code percentiles}: 50th up to 100th (the maximum), denser towards the tail. */
    public record Latency(double mean, long max, List<Point> percentiles) {}

    public record Point(double percentile, long micros) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON line in wrk's output. */
    public static WrkOutput parse(String output) {
        String json = output.lines()
                .filter(line -> line.startsWith("{"))
                .reduce((first, second) -> second)
                .orElseThrow(
                        () -> new IllegalStateException("not wrk output (no summary from loadtest's done() script): "
                                + output.strip().lines().findFirst().orElse("(empty)")));
        try {
            return JSON.readValue(json, WrkOutput.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "not wrk's summary from loadtest's done() script: " + e.getOriginalMessage());
        }
    }

    public double durationSeconds() {
        return durationMicros / 1e6;
    }

    /** As wrk computes its Requests/sec. */
    public double requestsPerSecond() {
        return durationMicros > 0 ? requests / durationSeconds() : 0;
    }

    /** The {@code percentile}th latency in ms; null when the script did not print it. */
    public Double percentileMs(double percentile) {
        return latencyMicros.percentiles().stream()
                .filter(p -> p.percentile() == percentile)
                .findFirst()
                .map(p -> p.micros() / 1000.0)
                .orElse(null);
    }

    public List<LatencySummary.Point> curve() {
        return latencyMicros.percentiles().stream()
                .map(p -> new LatencySummary.Point(p.percentile(), p.micros() / 1000.0))
                .toList();
    }
}
