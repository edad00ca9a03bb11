package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.Progress;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/** A load generator compare can drive: the embedded runner, or wrk / drill when installed. */
public interface Engine {

    String name();

    /** GET {@code target} from {@code concurrency} keep-alive connections as {@code timing} says. */
    Outcome run(URI target, int concurrency, Timing timing, LoadRunner.Phases phases);

    /**
     * The open model: GET {@code target} at {@code rate} requests/s over {@code connections} keep-alive
     * connections, each latency counted from the request's intended send time.
     *
     * @throws UsageException when the engine only runs closed loops
     */
    default Outcome runAtRate(URI target, int connections, double rate, Timing timing, LoadRunner.Phases phases) {
        throw new UsageException(
                "--rate: the " + name() + " engine runs closed loops only; the open model needs --engine embedded");
    }

    /**
     * A drill plan's {@code steps} in turn on each of {@code connections} (run --plan), a closed loop or, with
     * {@code rate} requests/s, the open model: what the runner measured in full (drill's summary reads its histogram)
     * and as an outcome.
     *
     * @throws UsageException when the engine runs no plans
     */
    default PlanRun runPlan(
            List<Plan.Step> steps, int connections, Double rate, Timing timing, LoadRunner.Phases phases) {
        throw new UsageException("run: the " + name() + " engine runs no plans");
    }

    /** A plan's run: the runner's whole result, and the same as compare keeps it (with each agent's share, if any). */
    record PlanRun(LoadResult result, Outcome outcome) {}

    /**
     * Refuses, before any run, a workload this engine cannot measure: servers holding every
     * {@code delayEvery}-th request {@code delayMs}.
     *
     * @throws UsageException naming why
     */
    default void checkWorkload(int delayEvery, long delayMs) {}

    /** A run failed but the next may go on (an agent left mid-run): the runs already made are kept. */
    final class RunLost extends RunFailure {
        public RunLost(String message) {
            super(message);
        }
    }

    /** No further run can be made (fewer agents than asked for): compare stops, keeping the runs already made. */
    final class CannotGoOn extends RunFailure {
        public CannotGoOn(String message) {
            super(message);
        }
    }

    /**
     * @param durationSeconds measured seconds, or null when {@code iterations} counts the measured part
     * @param warmupStepMs with a timed closed loop on the embedded runner, the warm-up is {@code warmupSeconds} at most
     *                     and ends at the first whole step of this many ms (one delay period) at which the caller's
     *                     {@link LoadRunner.Phases#warmedUp} says so (compare's --warmup auto); 0: a fixed warm-up
     */
    record Timing(
            int rampupSeconds,
            int warmupSeconds,
            Integer durationSeconds,
            Long iterations,
            int timeoutSeconds,
            int eventLoops,
            long warmupStepMs) {

        public Timing(
                int rampupSeconds,
                int warmupSeconds,
                Integer durationSeconds,
                Long iterations,
                int timeoutSeconds,
                int eventLoops) {
            this(rampupSeconds, warmupSeconds, durationSeconds, iterations, timeoutSeconds, eventLoops, 0);
        }

        /** Whether the warm-up ends when the caller says (at most {@code warmupSeconds}), not after a fixed time. */
        public boolean autoWarmup() {
            return warmupStepMs > 0;
        }
    }

    /**
     * How many local addresses this engine's connections to {@code targetHost} come from: each has one ephemeral
     * range of ports per server port (wrk and drill bind none of their own).
     */
    default int sourceAddresses(String targetHost, int connections) {
        return 1;
    }

    /**
     * Each second of each run's load to {@code watcher} as well, on the progress thread (compare's live page); engines
     * without a live count of their own (wrk, drill, agents) ignore it.
     */
    default void watch(Consumer<Progress.Reading> watcher) {}

    /** The I/O the engine runs on, when it has a choice (the embedded runner's --transport); null otherwise. */
    default String transport() {
        return null;
    }

    static Engine named(String name, PrintStream progressOut, boolean terminal) {
        return named(name, progressOut, terminal, GeneratorOptions.Setup.DEFAULT);
    }

    /** {@code setup}: the embedded runner's transport and source addresses; ignored by wrk and drill. */
    static Engine named(String name, PrintStream progressOut, boolean terminal, GeneratorOptions.Setup setup) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "embedded" -> new EmbeddedEngine(progressOut, terminal, setup);
            case "wrk" -> new WrkEngine(requireOnPath("wrk", "apt-get install wrk"));
            case "drill" -> new DrillEngine(requireOnPath("drill", "cargo install drill"));
            default ->
                throw new UsageException("--engine: unknown engine '" + name + "' (expected embedded, wrk or drill)");
        };
    }

    static String requireOnPath(String tool, String install) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator))
                .map(dir -> Path.of(dir, tool))
                .filter(Files::isExecutable)
                .findFirst()
                .map(Object::toString)
                .orElseThrow(() ->
                        new UsageException("--engine " + tool + ": " + tool + " is not installed (" + install + ")"));
    }
}
