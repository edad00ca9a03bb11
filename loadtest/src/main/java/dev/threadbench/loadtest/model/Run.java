package dev.threadbench.loadtest.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.threadbench.loadtest.model.Results.AgentRun;
import dev.threadbench.loadtest.model.Results.Coordination;
import dev.threadbench.loadtest.model.Results.Failed;
import dev.threadbench.loadtest.model.Results.Latency;
import dev.threadbench.loadtest.model.Results.OpenModel;
import dev.threadbench.loadtest.model.Results.Reconciliation;
import dev.threadbench.loadtest.model.Results.Timeline;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One server x strategy x concurrency in one round (0 for the first, and in files from before rounds): who ran, then
 * its figures in small groups, written flat into results.json as before ({@code @JsonUnwrapped}). Figures an engine
 * cannot give are null (wrk reports no 99.9th percentile without its script, say), as are the server's when it reports
 * no process figures on its /stats (older files: when compare had not started it). {@code phase}: with --sweep, the
 * procedure that measured it ({@link Phase}); null for a plain compare and in older files. {@code open}: what the open
 * model did (its latencies count from each request's intended send time); null for a closed-loop run.
 * {@code timeline}: the run second by second (null in older files, and from wrk and drill, which give no intervals).
 */
@JsonPropertyOrder({"server", "strategy", "concurrency", "engine", "round"})
@JsonDeserialize(using = Run.Reader.class)
public record Run(
        String server,
        String strategy,
        int concurrency,
        String engine,
        int round,
        Phase phase,
        @JsonUnwrapped Load load,
        @JsonUnwrapped Latencies latency,
        @JsonUnwrapped ServerSide serverSide,
        @JsonUnwrapped GeneratorSide generatorSide,
        Reconciliation reconciliation,
        List<String> notes,
        OpenModel open,
        @JsonUnwrapped Distributed cluster,
        Timeline timeline) {

    public Run {
        notes = notes == null ? List.of() : List.copyOf(notes);
        cluster = cluster == null ? Distributed.NONE : cluster;
    }

    /** This run as measured in a sweep's {@code phase}, with its worker pool share (null when not known). */
    public Run inPhase(Phase phase, Double workerPoolShare) {
        return new Run(
                server,
                strategy,
                concurrency,
                engine,
                round,
                phase,
                load,
                latency,
                serverSide.withWorkerPoolShare(workerPoolShare),
                generatorSide,
                reconciliation,
                notes,
                open,
                cluster,
                timeline);
    }

    public Run withServerExitCode(Integer code) {
        return new Run(
                server,
                strategy,
                concurrency,
                engine,
                round,
                phase,
                load,
                latency,
                serverSide.withExitCode(code),
                generatorSide,
                reconciliation,
                notes,
                open,
                cluster,
                timeline);
    }

    /** Whether it re-measured a pair's ends after the narrowing in. */
    public boolean endsRemeasure() {
        return phase == Phase.ENDS;
    }

    public String label() {
        return (strategy == null ? server : server + "/" + strategy) + " C=" + concurrency
                + (open == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", open.targetRate()));
    }

    /** The open model's target rate; null for a closed loop. */
    public Double targetRate() {
        return open == null ? null : open.targetRate();
    }

    /** Who ran and the figures outside the groups, as a run's flat object in results.json holds them. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    private record Head(
            String server,
            String strategy,
            int concurrency,
            String engine,
            int round,
            Phase phase,
            Reconciliation reconciliation,
            List<String> notes,
            OpenModel open,
            Timeline timeline) {}

    /**
     * Reads a run's flat object into its groups, each taking its own properties from it (Jackson 2 cannot pass
     * {@code @JsonUnwrapped} values to a record's constructor).
     */
    static final class Reader extends StdDeserializer<Run> {

        Reader() {
            super(Run.class);
        }

        @Override
        public Run deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode node = context.readTree(parser);
            Head head = context.readTreeAsValue(node, Head.class);
            return new Run(
                    head.server(),
                    head.strategy(),
                    head.concurrency(),
                    head.engine(),
                    head.round(),
                    head.phase(),
                    context.readTreeAsValue(node, Load.class),
                    context.readTreeAsValue(node, Latencies.class),
                    context.readTreeAsValue(node, ServerSide.class),
                    context.readTreeAsValue(node, GeneratorSide.class),
                    head.reconciliation(),
                    head.notes(),
                    head.open(),
                    context.readTreeAsValue(node, Distributed.class),
                    head.timeline());
        }
    }

    /** The server's request threads starved of CPU time: the field, or in older files the note. */
    public boolean serverStarved() {
        return serverSide.starved() != null ? serverSide.starved() : Note.SERVER_STARVED.in(notes);
    }

    /** The generator's event loops starved of CPU time: the field, or in older files the note. */
    public boolean generatorStarved() {
        return generatorSide.starved() != null ? generatorSide.starved() : Note.GENERATOR_STARVED.in(notes);
    }

    /** The kernel dropped connection attempts at a full accept queue: the field, or in older files the note. */
    public boolean listenDropped() {
        return serverSide.listenDrops() != null ? serverSide.listenDrops() > 0 : Note.KERNEL_DROPS.in(notes);
    }

    /**
     * The procedure a sweep's run was measured with: {@code grid} (one server climbing through the concurrencies),
     * {@code narrowing} (a server started for this point and warmed first) or {@code ends} (a pair's last held and
     * first not held measured again, as the narrowing measures). In results.json as the lowercase name.
     */
    public enum Phase {
        GRID,
        NARROWING,
        ENDS;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Phase of(String id) {
            return valueOf(id.toUpperCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return id();
        }
    }

    /**
     * What a run did over its measured window. {@code bound}: the most requests/s the workload allows (C closed-loop
     * clients, 1 in delayEvery held delayMs): 5 x C with the defaults; null without a delay. {@code warmupSeconds}: how
     * long its warm-up took, from the ramp-up's end to the window's start (null without a timeline, and in older
     * files).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Load(
            long requests,
            Failed failed,
            double durationSeconds,
            double requestsPerSecond,
            Double bound,
            Double ratioToBound,
            Long connectionsOpened,
            Double warmupSeconds) {}

    /** Its latency in milliseconds, and the whole curve ({@code percentiles}; empty when the engine gives none). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Latencies(Latency latencyMs, List<LatencySummary.Point> percentiles) {

        public Latencies {
            percentiles = percentiles == null ? List.of() : List.copyOf(percentiles);
        }
    }

    /**
     * The server's side of a run. {@code cpuShare}: its CPU use over the window as a fraction of its own CPU set;
     * {@code cpuBound}: 0.9 or more. {@code exitCode}: null while it ran on. {@code cost}: what the server reported of
     * its own process over the window; null when it reports nothing. {@code workerPoolShare}: for the blocking
     * strategy, the share of the server's worker pool its delayed requests held over the window (Little's law: delayed
     * answers/s x the delay / the pool's maximum); null for other strategies and when the pool is not known
     * (--targets). {@code starved}: its request threads waited on the run queue at least as long as they ran;
     * {@code listenDrops}: connection attempts this machine's kernel dropped at full accept queues over the run (a
     * server compare started). Both null in older files, where the notes say it ({@link Note}).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ServerSide(
            @JsonProperty("serverCpuSeconds") Double cpuSeconds,
            @JsonProperty("serverCpuMicrosPerRequest") Double cpuMicrosPerRequest,
            @JsonProperty("serverCpuShare") Double cpuShare,
            @JsonProperty("serverPeakRssMb") Double peakRssMb,
            @JsonProperty("serverBound") boolean cpuBound,
            @JsonProperty("serverExitCode") Integer exitCode,
            ServerCost cost,
            Double workerPoolShare,
            @JsonProperty("serverStarved") Boolean starved,
            Long listenDrops) {

        ServerSide withWorkerPoolShare(Double share) {
            return new ServerSide(
                    cpuSeconds,
                    cpuMicrosPerRequest,
                    cpuShare,
                    peakRssMb,
                    cpuBound,
                    exitCode,
                    cost,
                    share,
                    starved,
                    listenDrops);
        }

        ServerSide withExitCode(Integer code) {
            return new ServerSide(
                    cpuSeconds,
                    cpuMicrosPerRequest,
                    cpuShare,
                    peakRssMb,
                    cpuBound,
                    code,
                    cost,
                    workerPoolShare,
                    starved,
                    listenDrops);
        }
    }

    /**
     * The load generator's side of a run: its CPU over the window ({@code clientCpuSeconds} in results.json), as a
     * share of its own CPU set, {@code cpuBound} at 0.9 or more; {@code threads}: the embedded generator's own JVM
     * (compare's) by thread class, for its run-queue wait ({@link ThreadClassCost}); null from wrk, drill and agents,
     * and in older files. {@code starved}: its event loops waited on the run queue at least as long as they ran; null
     * in older files.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record GeneratorSide(
            @JsonProperty("clientCpuSeconds") Double cpuSeconds,
            @JsonProperty("generatorCpuShare") Double cpuShare,
            @JsonProperty("generatorBound") boolean cpuBound,
            @JsonProperty("generatorThreads") Map<String, ThreadClassCost> threads,
            @JsonProperty("generatorStarved") Boolean starved) {}

    /**
     * A run the agents' cluster made: each agent's share and what coordinating them cost; both null for one generator.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Distributed(List<AgentRun> agents, Coordination coordination) {

        public static final Distributed NONE = new Distributed(null, null);

        public Distributed {
            agents = agents == null ? null : List.copyOf(agents);
        }
    }
}
