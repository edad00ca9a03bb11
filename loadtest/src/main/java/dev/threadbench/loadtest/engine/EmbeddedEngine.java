package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.model.LatencySummary;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.FailureCause;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.LoadShape;
import dev.threadbench.loadtest.runner.LoadSpec;
import dev.threadbench.loadtest.runner.Progress;
import dev.threadbench.loadtest.runner.SecondSeries;
import dev.threadbench.loadtest.runner.SourceAddresses;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/** The embedded Vert.x runner. */
public final class EmbeddedEngine implements Engine {

    private final PrintStream progressOut;
    private final boolean terminal;
    private final GeneratorOptions.Setup setup;
    /** Whether the source addresses chosen on loopback were said: once is enough. */
    private boolean choiceSaid;

    private String ranOn;
    /** Each tick's figures beside the progress line; null: none. */
    private volatile Consumer<Progress.Reading> watcher;

    EmbeddedEngine(PrintStream progressOut, boolean terminal, GeneratorOptions.Setup setup) {
        this.progressOut = progressOut;
        this.terminal = terminal;
        this.setup = setup;
    }

    @Override
    public int sourceAddresses(String targetHost, int connections) {
        return Math.max(
                1,
                SourceAddresses.forLoad(
                                setup.sourceAddresses(),
                                targetHost,
                                connections,
                                SourceAddresses.EPHEMERAL_PORTS,
                                note -> {})
                        .size());
    }

    /** The transport the last run ran on (one that cannot start falls back); before any run, the one asked for. */
    @Override
    public String transport() {
        return ranOn != null ? ranOn : setup.transport().key();
    }

    @Override
    public void watch(Consumer<Progress.Reading> watcher) {
        this.watcher = watcher;
    }

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        return run(target, concurrency, null, timing, phases);
    }

    @Override
    public Outcome runAtRate(URI target, int connections, double rate, Timing timing, LoadRunner.Phases phases) {
        return run(target, connections, rate, timing, phases);
    }

    private Outcome run(URI target, int concurrency, Double rate, Timing timing, LoadRunner.Phases phases) {
        Duration warmup = Duration.ofSeconds(timing.warmupSeconds());
        // an auto warm-up steps through closed loops only: the open model's schedule needs its window's end at the
        // start
        LoadShape shape = timing.durationSeconds() != null
                ? new LoadShape.Timed(
                        warmup,
                        Duration.ofSeconds(timing.durationSeconds()),
                        timing.autoWarmup() && rate == null ? Duration.ofMillis(timing.warmupStepMs()) : null)
                : new LoadShape.Counted(warmup, timing.iterations());
        LoadSpec spec = new LoadSpec(
                        List.of(new Plan.Step("GET /", "GET", target, Map.of())),
                        concurrency,
                        Duration.ofSeconds(timing.rampupSeconds()),
                        Duration.ofSeconds(timing.timeoutSeconds()),
                        shape,
                        timing.eventLoops() > 0 ? timing.eventLoops() : LoadSpec.defaultEventLoops(concurrency),
                        rate)
                .with(
                        setup.transport(),
                        SourceAddresses.forLoad(
                                setup.sourceAddresses(),
                                target.getHost(),
                                concurrency,
                                SourceAddresses.EPHEMERAL_PORTS,
                                this::sayChoice));
        Progress.Sink line = progressOut == null ? Progress.Sink.NONE : Progress.Sink.forStream(progressOut, terminal);
        Consumer<Progress.Reading> watching = watcher;
        Progress.Sink sink = watching == null ? line : Progress.Sink.watched(line, watching);
        LoadResult result = new LoadRunner(spec, phases, sink).run();
        ranOn = result.transport();
        return outcome(result);
    }

    private void sayChoice(String line) {
        if (!choiceSaid && progressOut != null) {
            choiceSaid = true;
            progressOut.println(line);
        }
    }

    /** What the runner measured, in the shape compare keeps for every engine. */
    public static Outcome outcome(LoadResult result) {
        Map<FailureCause, Long> f = result.failures();
        Results.Failed failed = new Results.Failed(
                result.failed(),
                f.get(FailureCause.NON_2XX),
                f.get(FailureCause.TIMEOUT),
                f.get(FailureCause.REFUSED),
                f.get(FailureCause.RESET),
                f.get(FailureCause.SHORT_BODY),
                f.get(FailureCause.OTHER));
        LatencySummary s = LatencySummary.of(result.latencyMicros());
        Results.Latency latency = new Results.Latency(s.p50(), s.p90(), s.p99(), s.p999(), s.max(), s.mean());
        List<String> notes = new ArrayList<>();
        if (result.firstOtherFailure() != null) {
            notes.add("first 'other' failure: " + result.firstOtherFailure());
        }
        LoadResult.Open open = result.open();
        if (open != null && (open.late() > 0 || open.unsent() > 0)) {
            notes.add(scheduleNote(open));
        }
        return new Outcome(
                        new Outcome.Window(
                                result.requests(),
                                failed,
                                result.durationSeconds(),
                                result.requestsPerSecond(),
                                result.connectionsOpened()),
                        new Run.Latencies(latency, LatencySummary.curve(result.latencyMicros())),
                        result.generatorCpuSeconds(),
                        new Outcome.Answers(result.answered(), result.sent() - result.answered()),
                        notes,
                        open == null
                                ? null
                                : new Results.OpenModel(
                                        "open",
                                        open.targetRate(),
                                        Math.round(result.achievedRate() * 10) / 10.0,
                                        open.connections(),
                                        open.late(),
                                        open.unsent(),
                                        Math.round(open.maxLateMs() * 1000) / 1000.0))
                .withTimeline(timeline(result.seconds()))
                .withSeconds(result.seconds());
    }

    /** The runner's seconds as results.json keeps them; null when it kept none. */
    static Results.Timeline timeline(SecondSeries seconds) {
        if (seconds == null) {
            return null;
        }
        return new Results.Timeline(
                Math.round(seconds.measureStartSecond() * 1000) / 1000.0,
                Math.round(seconds.measureEndSecond() * 1000) / 1000.0,
                seconds.seconds().stream()
                        .map(s -> new Results.GeneratorSecond(
                                s.second(), s.requests(), s.failed(), s.p50Ms(), s.p99Ms(), s.maxMs()))
                        .toList(),
                null);
    }

    /** The client could not keep to the schedule: how far it fell behind, and what to do about it. */
    static String scheduleNote(LoadResult.Open open) {
        return String.format(
                Locale.ROOT,
                "behind schedule: %,d measured request(s) sent more than %d ms after their intended time"
                        + " (the latest %.0f ms), %,d never sent (no free connection within the timeout, counted as"
                        + " timeouts): their"
                        + " latency still counts from the intended time, but while the client was behind (no free"
                        + " connection, or its own"
                        + " CPU or pauses) the server was offered less than %,.0f req/s",
                open.late(),
                LoadResult.Open.LATE_MILLIS,
                open.maxLateMs(),
                open.unsent(),
                open.targetRate());
    }
}
