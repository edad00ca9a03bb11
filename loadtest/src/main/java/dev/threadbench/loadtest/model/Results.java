package dev.threadbench.loadtest.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code compare} writes to results.json and {@code report} reads back. {@code skipped}: the concurrencies compare
 * did not run because this machine could not hold them (descriptor limit, memory); empty in older files. {@code sweep}:
 * with --sweep, one entry per server x strategy, its breaking point and what limited it ({@link SweepPair}); null for a
 * plain compare, and in files from before it (report computes it from the runs). {@code profiles}: with --profile, each
 * profiled run's flame graph and bucket shares; empty otherwise. {@code baseline}: with --baseline, each matching cell
 * set against the baseline's ({@link BaselineJudgement}); null otherwise.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Results(
        Environment environment,
        Settings settings,
        List<Run> runs,
        List<Skipped> skipped,
        List<SweepPair> sweep,
        List<Profile> profiles,
        BaselineJudgement baseline) {

    public Results {
        runs = List.copyOf(runs);
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
        sweep = sweep == null ? null : List.copyOf(sweep);
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
    }

    public Results(
            Environment environment,
            Settings settings,
            List<Run> runs,
            List<Skipped> skipped,
            List<SweepPair> sweep,
            List<Profile> profiles) {
        this(environment, settings, runs, skipped, sweep, profiles, null);
    }

    /** These results judged against a baseline ({@code --baseline}): the {@code baseline} section. */
    public Results withBaseline(BaselineJudgement judgement) {
        return new Results(environment, settings, runs, skipped, sweep, profiles, judgement);
    }

    public Results(Environment environment, Settings settings, List<Run> runs, List<Skipped> skipped) {
        this(environment, settings, runs, skipped, null, List.of());
    }

    public Results(Environment environment, Settings settings, List<Run> runs) {
        this(environment, settings, runs, List.of(), null, List.of());
    }

    /** Whether these are a sweep's (--sweep); false for a plain compare and for files without settings. */
    public boolean swept() {
        return settings != null && settings.swept();
    }

    /** These results with their sweep section (null for none). */
    public Results withSweep(List<SweepPair> pairs) {
        return new Results(environment, settings, runs, skipped, pairs, profiles, baseline);
    }

    /** A concurrency not run, and why: "the descriptor limit (ulimit -n) is 4,096; it needs 10,256", say. */
    public record Skipped(int concurrency, String reason) {}

    /**
     * Where and with what the runs were made; {@code serverJvmOptions} and {@code serverArgs} (--server-args) are null
     * when the servers were already running; {@code cpuPinning} null in files from before it was recorded. With
     * {@code frameworks} (each server as named in the runs, undertow@2.3.27.Final say, and the framework version it
     * logged), {@code build} (the loadtest jar's build id) and {@code gitCommit} (the project's commit, "-dirty" when
     * its tree had changes; null when unknown) they are the run's fingerprint ({@code analysis.Fingerprint}); the three
     * are null in files from before it.
     */
    @JsonPropertyOrder({"jdk", "os", "cpuModel", "cores", "undertowVersion", "vertxVersion", "date"})
    public record Environment(
            String jdk,
            String os,
            String cpuModel,
            int cores,
            String undertowVersion,
            String vertxVersion,
            String date,
            String serverJvmOptions,
            String serverArgs,
            Pinning cpuPinning,
            Map<String, String> frameworks,
            String build,
            String gitCommit) {}

    /**
     * The CPUs the servers and the load generator were pinned to ({@code 0-3,6}); null for a side not pinned.
     * {@code note}: how ("taskset; server JVMs with -XX:ActiveProcessorCount=1"), or why not ("not pinned: --no-pin").
     */
    public record Pinning(String serverCpus, String generatorCpus, String note) {}

    /**
     * How the runs were made; {@code iterations} null when each run was measured for a duration; {@code rounds}
     * (--repeat) null in files from before rounds, which had one; {@code sweep}: --sweep (null in older files);
     * {@code sweepResolution}: --resolution, how close the sweep narrowed each pair's last concurrency held and first
     * not held, (notHeld - held) / held (null without --sweep, and in files from before it narrowed in);
     * {@code generatorTransport}: the I/O the embedded runner ran on (epoll, io_uring or nio; null for other engines
     * and in older files). {@code warmupAuto}: --warmup auto, each run's warm-up ended once the server's JIT had
     * settled, at most {@code warmupSeconds} (each run's own in its {@code warmupSeconds}); null in older files.
     * {@code targets}: true when the servers were already running (--targets), null when compare started them and in
     * older files.
     */
    public record Settings(
            String engine,
            int rampupSeconds,
            int warmupSeconds,
            Integer durationSeconds,
            Long iterations,
            int timeoutSeconds,
            int delayEvery,
            long delayMs,
            int eventLoops,
            Integer rounds,
            Boolean sweep,
            Double sweepResolution,
            String generatorTransport,
            Boolean warmupAuto,
            Boolean targets) {

        public Settings withGeneratorTransport(String transport) {
            return new Settings(
                    engine,
                    rampupSeconds,
                    warmupSeconds,
                    durationSeconds,
                    iterations,
                    timeoutSeconds,
                    delayEvery,
                    delayMs,
                    eventLoops,
                    rounds,
                    sweep,
                    sweepResolution,
                    transport,
                    warmupAuto,
                    targets);
        }

        /**
         * The servers were already running (--targets): one process of each served every round, so the rounds of a
         * figure of the process (peak threads, RSS, heap) are not independent readings.
         */
        public boolean oneProcessPerServer() {
            return Boolean.TRUE.equals(targets);
        }

        public boolean autoWarmup() {
            return Boolean.TRUE.equals(warmupAuto);
        }

        public boolean swept() {
            return Boolean.TRUE.equals(sweep);
        }

        public int roundCount() {
            return rounds == null ? 1 : rounds;
        }
    }

    /**
     * What happened during a run, over time, on one clock: seconds since the load started (its ramp-up, warm-up,
     * measured window and the drain of its last answers). {@code generatorSeconds}: per 1 s bucket, the requests
     * completed in it and their latency (HdrHistogram intervals; from agents, their histograms added per second);
     * {@code serverSamples}: those of its own /stats compare takes every 500 ms (null when it reports none);
     * {@code measureStartSecond} / {@code measureEndSecond}: the measured window on that clock.
     */
    public record Timeline(
            double measureStartSecond,
            double measureEndSecond,
            List<GeneratorSecond> generatorSeconds,
            List<ServerSample> serverSamples) {

        public Timeline {
            generatorSeconds = generatorSeconds == null ? List.of() : List.copyOf(generatorSeconds);
            serverSamples = serverSamples == null ? null : List.copyOf(serverSamples);
        }
    }

    /** One second of the generator's: requests completed in it (answered or failed), their p50, p99 and max in ms. */
    public record GeneratorSecond(int second, long requests, long failed, Double p50Ms, Double p99Ms, Double maxMs) {}

    /**
     * One sample of the server's own /stats: {@code cpuShare}, its CPU use since the previous sample as a share of its
     * CPUs; {@code threads}, its live threads; {@code gcPauseMs}, GC pause time since the previous sample.
     */
    public record ServerSample(double second, Double cpuShare, Long threads, Double gcPauseMs) {}

    /**
     * One agent's share of a run the cluster made ({@code engine} "cluster"): its connections and what it measured of
     * them. The run's own figures are the merged ones (one histogram of every agent's samples).
     * {@code generatorCpuShare}: its CPU over the window as a share of its own CPUs; {@code startLateMs}: how long
     * after its intended start it began.
     */
    public record AgentRun(
            String name,
            String host,
            int connections,
            long requests,
            long failed,
            double requestsPerSecond,
            Double p99Ms,
            double generatorCpuSeconds,
            double generatorCpuShare,
            int cpus,
            long answered,
            double startLateMs) {}

    /**
     * What coordinating a cluster run cost: {@code startSkewMs}, the most the agents' starts may have been apart (from
     * the orders' send and accept times as compare saw them, and each agent's own lateness), and the event-bus
     * messages and bytes compare sent and received for the run (the cluster's own heartbeats not counted).
     */
    public record Coordination(double startSkewMs, long messages, long bytes) {}

    /**
     * An open-model run: requests scheduled at {@code targetRate} requests/s over {@code connections}, whatever
     * the answers; {@code achievedRate}: those sent per second of the measured window; {@code lateRequests}: sent
     * more than 10 ms after their intended time (no free connection, a busy generator); {@code unsentRequests}:
     * never sent (no free connection within the timeout, counted as timeouts); {@code maxLateMs}: the latest one.
     * {@code model} is "open"; a run without this record is closed-loop.
     */
    public record OpenModel(
            String model,
            double targetRate,
            double achievedRate,
            int connections,
            long lateRequests,
            long unsentRequests,
            double maxLateMs) {}

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
    public record Reconciliation(long serverCounted, long clientAnswered, long difference, Match verdict) {

        /** How the two counts compare; in results.json as the lowercase name. */
        public enum Match {
            EXACT,
            EXPLAINED,
            MISMATCH;

            @JsonValue
            public String id() {
                return name().toLowerCase(Locale.ROOT);
            }

            @JsonCreator
            public static Match of(String id) {
                return valueOf(id.toUpperCase(Locale.ROOT));
            }
        }

        public static Reconciliation of(long serverCounted, long clientAnswered, long unansweredFailures) {
            long difference = serverCounted - clientAnswered;
            Match verdict = difference == 0
                    ? Match.EXACT
                    : difference > 0 && difference <= unansweredFailures ? Match.EXPLAINED : Match.MISMATCH;
            return new Reconciliation(serverCounted, clientAnswered, difference, verdict);
        }

        /** "exact", "explained (+3)" or "MISMATCH (-1)". */
        public String describe() {
            return switch (verdict) {
                case EXACT -> "exact";
                case EXPLAINED -> String.format(Locale.ROOT, "explained (+%d)", difference);
                case MISMATCH -> String.format(Locale.ROOT, "MISMATCH (%+d)", difference);
            };
        }

        /** The counts differ by more than the requests that failed without an answer explain. */
        public boolean mismatched() {
            return verdict == Match.MISMATCH;
        }
    }
}
