package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.runner.FailureCause;
import dev.threadbench.loadtest.runner.LatencySummary;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.LoadShape;
import dev.threadbench.loadtest.runner.LoadSpec;
import dev.threadbench.loadtest.runner.Progress;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The embedded Vert.x runner. */
final class EmbeddedEngine implements Engine {

    private final PrintStream progressOut;
    private final boolean terminal;

    EmbeddedEngine(PrintStream progressOut, boolean terminal) {
        this.progressOut = progressOut;
        this.terminal = terminal;
    }

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        Duration warmup = Duration.ofSeconds(timing.warmupSeconds());
        LoadShape shape = timing.durationSeconds() != null
                ? new LoadShape.Timed(warmup, Duration.ofSeconds(timing.durationSeconds()))
                : new LoadShape.Counted(warmup, timing.iterations());
        LoadSpec spec = new LoadSpec(List.of(new Plan.Step("GET /", "GET", target, Map.of())), concurrency,
                Duration.ofSeconds(timing.rampupSeconds()), Duration.ofSeconds(timing.timeoutSeconds()), shape,
                timing.eventLoops() > 0 ? timing.eventLoops() : LoadSpec.defaultEventLoops(concurrency));
        Progress.Sink sink = progressOut == null ? Progress.Sink.NONE : Progress.Sink.forStream(progressOut, terminal);
        return outcome(new LoadRunner(spec, phases, sink).run());
    }

    static Outcome outcome(LoadResult result) {
        Map<FailureCause, Long> f = result.failures();
        Results.Failed failed = new Results.Failed(result.failed(), f.get(FailureCause.NON_2XX), f.get(FailureCause.TIMEOUT),
                f.get(FailureCause.REFUSED), f.get(FailureCause.RESET), f.get(FailureCause.SHORT_BODY), f.get(FailureCause.OTHER));
        LatencySummary s = LatencySummary.of(result.latencyMicros());
        Results.Latency latency = new Results.Latency(s.p50(), s.p90(), s.p99(), s.p999(), s.max(), s.mean());
        List<String> notes = new ArrayList<>();
        if (result.firstOtherFailure() != null) {
            notes.add("first 'other' failure: " + result.firstOtherFailure());
        }
        return new Outcome(result.requests(), failed, result.durationSeconds(), result.requestsPerSecond(), latency,
                LatencySummary.curve(result.latencyMicros()), result.clientCpuSeconds(), result.answered(),
                result.sent() - result.answered(), result.connectionsOpened(), notes);
    }
}
