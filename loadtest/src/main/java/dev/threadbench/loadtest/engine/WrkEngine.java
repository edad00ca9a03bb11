package dev.threadbench.loadtest.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadbench.loadtest.base.ProcFs;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.runner.LoadRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * wrk: one {@code wrk -t2 -cC -dDs --timeout 10s --latency} process through the ramp-up, the warm-up, the measured
 * window and two seconds after it, so that its connections are open before the window, as the embedded runner's are,
 * and its start and stop fall outside it. At the window's edges compare reads wrk's CPU from /proc/PID/stat, as it
 * reads its own JVM's, and the server's count of answers from its /stats (requests less those in flight): the window's
 * requests. wrk's own summary, from its Lua done() hook ({@link #SCRIPT}), covers the whole run: its latency and
 * errors, and the answers to set against the server's count. wrk has no ramp-up of its own and no iteration count: a
 * duration is required.
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

    /** wrk runs this long past the window: its stop, and the requests it abandons then, are not measured. */
    static final int TAIL_SECONDS = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String wrk;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    WrkEngine(String wrk) {
        this.wrk = wrk;
    }

    @Override
    public String name() {
        return "wrk";
    }

    static List<String> command(
            String wrk, int threads, int concurrency, int seconds, int timeoutSeconds, Path script, URI target) {
        return List.of(
                wrk,
                "-t" + threads,
                "-c" + concurrency,
                "-d" + seconds + "s",
                "--timeout",
                timeoutSeconds + "s",
                "--latency",
                "-s",
                script.toString(),
                target.toString());
    }

    /** What the window measured: the server's answers and wrk's CPU between its edges, and its length. */
    record Window(long answers, double cpuSeconds, double seconds) {}

    @Override
    public Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases) {
        if (timing.durationSeconds() == null) {
            throw new UsageException(
                    "--engine wrk: wrk runs for a duration, not a number of iterations (drop --iterations)");
        }
        // the CPUs this JVM may run on: the generator's once compare has pinned itself, and wrk inherits them
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), concurrency));
        int lead = timing.rampupSeconds() + timing.warmupSeconds();
        Path script;
        try {
            script = Files.createTempFile("loadtest-wrk", ".lua");
            Files.writeString(script, SCRIPT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = command(
                wrk,
                threads,
                concurrency,
                lead + timing.durationSeconds() + TAIL_SECONDS,
                timing.timeoutSeconds(),
                script,
                target);
        Process process = null;
        try {
            URI stats = target.resolve("/stats");
            answers(stats); // before wrk starts: a server without the count fails here, and the client is warm for the
            // edges
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            InputStream stdout = process.getInputStream();
            CompletableFuture<String> output = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
                        } catch (IOException e) {
                            return "";
                        }
                    },
                    task -> Thread.ofVirtual().start(task));
            Window window = measure(process, stats, lead, timing.durationSeconds(), phases);
            int code = process.waitFor();
            ExternalTool.requireSuccess(new ExternalTool.Ran(output.join(), code, 0), command);
            return outcome(WrkOutput.parse(output.join()), window, concurrency);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + wrk, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + wrk);
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            try {
                Files.deleteIfExists(script);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }

    /**
     * From {@code lead} seconds after wrk started, {@code seconds} long: its edges read as the embedded runner's are.
     */
    private Window measure(Process process, URI stats, int lead, int seconds, LoadRunner.Phases phases)
            throws InterruptedException {
        long started = System.nanoTime();
        sleepUntil(started + lead * 1_000_000_000L);
        if (!process.isAlive()) {
            throw new RunFailure("wrk exited before its measured window, with " + process.exitValue());
        }
        long answersBefore = answers(stats);
        Double cpuBefore = ProcFs.processCpuSeconds(process.pid());
        long windowStart = System.nanoTime();
        phases.measureStarted();
        sleepUntil(windowStart + seconds * 1_000_000_000L);
        long answersAfter = answers(stats);
        Double cpuAfter = ProcFs.processCpuSeconds(process.pid());
        long windowEnd = System.nanoTime();
        phases.measureEnded();
        if (!process.isAlive()) {
            throw new RunLost(
                    "wrk ended inside its measured window (the machine too slow to start it on time?): run again");
        }
        double cpu = cpuBefore == null || cpuAfter == null ? 0 : Math.max(0, cpuAfter - cpuBefore);
        return new Window(answersAfter - answersBefore, cpu, (windowEnd - windowStart) / 1e9);
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            Thread.sleep(Duration.ofNanos(left));
        }
    }

    /** The server's answers so far: the requests its /stats counts, less those still in flight. */
    private long answers(URI stats) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(stats)
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
            if (json == null
                    || !json.path("requests").isNumber()
                    || !json.path("inFlight").isNumber()) {
                throw new RunLost("--engine wrk: the window's requests are the server's count on its /stats, and "
                        + stats + " answered " + response.statusCode() + " without one");
            }
            return json.get("requests").asLong() - json.get("inFlight").asLong();
        } catch (IOException e) {
            throw new RunLost("--engine wrk: GET " + stats + " failed at the window's edge: " + e.getMessage());
        }
    }

    static Outcome outcome(WrkOutput wrk, Window window, int concurrency) {
        WrkOutput.Errors errors = wrk.errors();
        long socketFailures = errors.connect() + errors.read() + errors.write() + errors.timeout();
        Results.Failed failed = new Results.Failed(
                errors.status() + socketFailures,
                errors.status(),
                errors.timeout(),
                errors.connect(),
                errors.read() + errors.write(),
                0,
                0);
        Results.Latency latency = new Results.Latency(
                wrk.percentileMs(50),
                wrk.percentileMs(90),
                wrk.percentileMs(99),
                wrk.percentileMs(99.9),
                wrk.latencyMicros().max() / 1000.0,
                wrk.latencyMicros().mean() / 1000.0);
        List<String> notes =
                List.of("wrk: one process through ramp-up, warm-up and the window (its connections open before"
                        + " it); the window's requests are the server's answers between its edges, its CPU wrk's own"
                        + " over them; latency"
                        + " and failures are wrk's over the whole run; the requests in flight at its deadline are"
                        + " abandoned, so the"
                        + " server may count up to " + concurrency + " more than wrk");
        double requestsPerSecond = window.seconds() > 0 ? window.answers() / window.seconds() : 0;
        return new Outcome(
                new Outcome.Window(window.answers(), failed, window.seconds(), requestsPerSecond, null),
                new Run.Latencies(latency, wrk.curve()),
                window.cpuSeconds(),
                new Outcome.Answers(wrk.requests(), concurrency + socketFailures),
                notes,
                null);
    }
}
