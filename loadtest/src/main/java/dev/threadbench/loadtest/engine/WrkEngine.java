package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * wrk: {@code wrk -t2 -cC -dDs --timeout 10s --latency}, once unmeasured for the warm-up, then measured.
 * A small done() script adds the percentiles wrk's summary lacks (99.9th, the curve). wrk has no
 * ramp-up and no iteration count: a measured duration is required.
 */
final class WrkEngine implements Engine {

    static final String SCRIPT = """
            -- written by loadtest: the percentiles wrk's --latency summary lacks, in microseconds
            done = function(summary, latency, requests)
              for _, p in ipairs({50, 75, 87.5, 90, 93.75, 96.875, 98.4375, 99, 99.5, 99.9, 99.99, 99.999}) do
                io.write(string.format("loadtest-percentile %g %d\\n", p, latency:percentile(p)))
              end
              io.write(string.format("loadtest-percentile 100 %d\\n", latency.max))
            end
            """;

    private final String wrk;

    WrkEngine(String wrk) {
        this.wrk = wrk;
    }

    @Override
    public String name() {
        return "wrk";
    }

    static List<String> command(String wrk, int threads, int concurrency, int seconds, int timeoutSeconds, Path script, URI target) {
        List<String> command = new ArrayList<>(List.of(wrk, "-t" + threads, "-c" + concurrency, "-d" + seconds + "s",
                "--timeout", timeoutSeconds + "s", "--latency"));
        if (script != null) {
            command.addAll(List.of("-s", script.toString()));
        }
        command.add(target.toString());
        return command;
    }

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        if (timing.durationSeconds() == null) {
            throw new dev.threadbench.loadtest.UsageException("--engine wrk: wrk runs for a duration, not a number of iterations (drop --iterations)");
        }
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), concurrency));
        Path script;
        try {
            script = Files.createTempFile("loadtest-wrk", ".lua");
            Files.writeString(script, SCRIPT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            long warmupAnswers = 0;
            if (timing.warmupSeconds() > 0) {
                List<String> warm = command(wrk, threads, concurrency, timing.warmupSeconds(), timing.timeoutSeconds(), null, target);
                ExternalTool.Ran ran = ExternalTool.run(warm);
                ExternalTool.requireSuccess(ran, warm);
                warmupAnswers = WrkOutput.parse(ran.output()).requests();
            }
            List<String> measured = command(wrk, threads, concurrency, timing.durationSeconds(), timing.timeoutSeconds(), script, target);
            phases.measureStarted();
            ExternalTool.Ran ran = ExternalTool.run(measured);
            phases.measureEnded();
            ExternalTool.requireSuccess(ran, measured);
            return outcome(WrkOutput.parse(ran.output()), ran.cpuSeconds(), warmupAnswers, concurrency, timing);
        } finally {
            try {
                Files.deleteIfExists(script);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }

    static Outcome outcome(WrkOutput wrk, double cpuSeconds, long warmupAnswers, int concurrency, Timing timing) {
        long socketFailures = wrk.connectErrors() + wrk.readErrors() + wrk.writeErrors() + wrk.timeouts();
        Results.Failed failed = new Results.Failed(wrk.non2xx() + socketFailures, wrk.non2xx(), wrk.timeouts(),
                wrk.connectErrors(), wrk.readErrors() + wrk.writeErrors(), 0, 0);
        Results.Latency latency = new Results.Latency(wrk.p50Ms(), wrk.p90Ms(), wrk.p99Ms(), wrk.p999Ms(),
                wrk.latencyMaxMs(), wrk.latencyMeanMs());
        List<String> notes = new ArrayList<>();
        notes.add("wrk: no ramp-up; requests still in flight at each run's deadline (warm-up and measured) are"
                + " abandoned, so the server may count up to " + (2 * concurrency) + " more than wrk");
        return new Outcome(wrk.requests(), failed, wrk.durationSeconds(), wrk.requestsPerSecond(), latency,
                wrk.percentiles(), cpuSeconds, warmupAnswers + wrk.requests(),
                2L * concurrency + socketFailures, null, notes);
    }
}
