package dev.threadbench.loadtest.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.threadbench.loadtest.runner.LatencySummary;
import java.util.List;

/** What {@code compare} writes to results.json and {@code report} reads back. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Results(Environment environment, Settings settings, List<Run> runs) {

    public Results {
        runs = List.copyOf(runs);
    }

    /**
     * Where and with what the runs were made; {@code serverJvmOptions} and {@code serverArgs} (--server-args)
     * are null when the servers were already running.
     */
    @JsonPropertyOrder({"jdk", "os", "cpuModel", "cores", "undertowVersion", "vertxVersion", "date"})
    public record Environment(String jdk, String os, String cpuModel, int cores, String undertowVersion,
                              String vertxVersion, String date, String serverJvmOptions, String serverArgs) {}

    /** How the runs were made; {@code iterations} null when each run was measured for a duration. */
    public record Settings(String engine, int rampupSeconds, int warmupSeconds, Integer durationSeconds, Long iterations,
                           int timeoutSeconds, int delayEvery, long delayMs, int eventLoops) {}

    /**
     * One server x strategy x concurrency. {@code bound}: the most requests/s the workload allows (C
     * closed-loop clients, 1 in delayEvery held delayMs): 5 x C with the defaults; null without a delay.
     * Figures an engine cannot give are null (wrk reports no 99.9th percentile without its script, say).
     */
    @JsonPropertyOrder({"server", "strategy", "concurrency", "engine", "requests", "failed", "durationSeconds",
            "requestsPerSecond", "bound", "ratioToBound", "latencyMs", "serverCpuSeconds", "serverPeakRssMb",
            "clientCpuSeconds", "generatorBound", "reconciliation"})
    public record Run(String server, String strategy, int concurrency, String engine, long requests, Failed failed,
                      double durationSeconds, double requestsPerSecond, Double bound, Double ratioToBound,
                      Latency latencyMs, Double serverCpuSeconds, Double serverPeakRssMb, Double clientCpuSeconds,
                      boolean generatorBound, Reconciliation reconciliation, Long connectionsOpened,
                      Integer serverExitCode, List<LatencySummary.Point> percentiles, List<String> notes) {

        public Run {
            percentiles = percentiles == null ? List.of() : List.copyOf(percentiles);
            notes = notes == null ? List.of() : List.copyOf(notes);
        }

        public String label() {
            return server + "/" + strategy + " C=" + concurrency;
        }

        public Run withServerExitCode(Integer code) {
            return new Run(server, strategy, concurrency, engine, requests, failed, durationSeconds, requestsPerSecond,
                    bound, ratioToBound, latencyMs, serverCpuSeconds, serverPeakRssMb, clientCpuSeconds, generatorBound,
                    reconciliation, connectionsOpened, code, percentiles, notes);
        }
    }

    /** Failed requests, in all and by cause. */
    public record Failed(long total, long non2xx, long timeout, long refused, long reset, long shortBody, long other) {}

    /** Latency in milliseconds. */
    public record Latency(Double p50, Double p90, Double p99, Double p999, Double max, Double mean) {}

    /**
     * The server's own count (requests to / between two /stats reads taken while it was idle, before the run
     * and after its last answer) against the answers the client received in the same span.
     * {@code verdict}: "exact" (equal), "explained" (the server counted more, by no more than the requests
     * that failed without an answer: timeouts, resets), or "mismatch".
     */
    public record Reconciliation(long serverCounted, long clientAnswered, long difference, String verdict) {

        public static Reconciliation of(long serverCounted, long clientAnswered, long unansweredFailures) {
            long difference = serverCounted - clientAnswered;
            String verdict = difference == 0 ? "exact"
                    : difference > 0 && difference <= unansweredFailures ? "explained" : "mismatch";
            return new Reconciliation(serverCounted, clientAnswered, difference, verdict);
        }
    }
}
