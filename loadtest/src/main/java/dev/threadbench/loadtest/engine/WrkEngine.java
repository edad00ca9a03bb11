package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.UsageException;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * wrk: {@code wrk -t2 -cC -dDs --timeout 10s --latency}, once unmeasured for the warm-up, then measured.
 * Its Lua done() hook ({@link #SCRIPT}) prints the summary, errors and latency percentiles as JSON. wrk
 * has no ramp-up and no iteration count: a measured duration is required.
 */
final class WrkEngine implements Engine {

    /** The report's latency curve: each halving of the distance to 100%, and 90, 99, 99.9, ... up to the maximum. */
    static final String SCRIPT = """
            -- written by loadtest: wrk's summary, errors and latency (microseconds) as one line of JSON
            done = function(summary, latency, requests)
              local points = {}
              for _, p in ipairs({50, 75, 87.5, 90, 93.75, 96.875, 98.4375, 99, 99.5, 99.9, 99.99, 99.999}) do
                points[#points + 1] = string.format('{"percentile":%g,"micros":%d}', p, latency:percentile(p))
              end
              points[#points + 1] = string.format('{"percentile":100,"micros":%d}', latency.max)
              local e = summary.errors
              io.write(string.format('{"durationMicros":%d,"requests":%d,'
                .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
                .. '"latencyMicros":{"mean":%.3f,"max":%d,"percentiles":[%s]}}\\n',
                summary.duration, summary.requests, e.connect, e.read, e.write, e.status, e.timeout,
                latency.mean, latency.max, table.concat(points, ",")))
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
        return List.of(wrk, "-t" + threads, "-c" + concurrency, "-d" + seconds + "s", "--timeout", timeoutSeconds + "s", "--latency",
                "-s", script.toString(), target.toString());
    }

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        if (timing.durationSeconds() == null) {
            throw new UsageException("--engine wrk: wrk runs for a duration, not a number of iterations (drop --iterations)");
        }
        // the CPUs this JVM may run on: the generator's once compare has pinned itself, and wrk inherits them
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
                List<String> warm = command(wrk, threads, concurrency, timing.warmupSeconds(), timing.timeoutSeconds(), script, target);
                ExternalTool.Ran ran = ExternalTool.run(warm);
                ExternalTool.requireSuccess(ran, warm);
                warmupAnswers = WrkOutput.parse(ran.output()).requests();
            }
            List<String> measured = command(wrk, threads, concurrency, timing.durationSeconds(), timing.timeoutSeconds(), script, target);
            phases.measureStarted();
            ExternalTool.Ran ran = ExternalTool.run(measured);
            phases.measureEnded();
            ExternalTool.requireSuccess(ran, measured);
            return outcome(WrkOutput.parse(ran.output()), ran.cpuSeconds(), warmupAnswers, concurrency);
        } finally {
            try {
                Files.deleteIfExists(script);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }

    static Outcome outcome(WrkOutput wrk, double cpuSeconds, long warmupAnswers, int concurrency) {
        WrkOutput.Errors errors = wrk.errors();
        long socketFailures = errors.connect() + errors.read() + errors.write() + errors.timeout();
        Results.Failed failed = new Results.Failed(errors.status() + socketFailures, errors.status(), errors.timeout(),
                errors.connect(), errors.read() + errors.write(), 0, 0);
        Results.Latency latency = new Results.Latency(wrk.percentileMs(50), wrk.percentileMs(90), wrk.percentileMs(99),
                wrk.percentileMs(99.9), wrk.latencyMicros().max() / 1000.0, wrk.latencyMicros().mean() / 1000.0);
        List<String> notes = List.of("wrk: no ramp-up; requests still in flight at each run's deadline (warm-up and measured)"
                + " are abandoned, so the server may count up to " + (2 * concurrency) + " more than wrk");
        return new Outcome(wrk.requests(), failed, wrk.durationSeconds(), wrk.requestsPerSecond(), latency, wrk.curve(),
                cpuSeconds, warmupAnswers + wrk.requests(), 2L * concurrency + socketFailures, null, notes, null);
    }
}
