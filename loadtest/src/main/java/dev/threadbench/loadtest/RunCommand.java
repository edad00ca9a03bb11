package dev.threadbench.loadtest;

import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cli.Console;
import dev.threadbench.loadtest.cli.ExitCodes;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.cluster.ClusterEngine;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.GeneratorOptions;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.plan.PlanParser;
import dev.threadbench.loadtest.runner.DrillSummary;
import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.LoadShape;
import dev.threadbench.loadtest.runner.LoadSpec;
import dev.threadbench.loadtest.runner.Progress;
import dev.threadbench.loadtest.runner.SourceAddresses;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code run --plan FILE}: drill's job on this runner, with drill's summary lines. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a drill plan on the embedded runner and print drill's --stats summary (plus p50, p90, max).")
public final class RunCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Option(names = "--plan", required = true, paramLabel = "FILE", description = "drill plan (YAML), e.g. benchmarks/drill-1000.yml")
    private Path planFile;

    @Option(names = "--base", paramLabel = "URL", description = "replace the plan's base URL (e.g. http://localhost:8081)")
    private String base;

    @Option(names = "--iterations", paramLabel = "N", description = "replace the plan's iterations (plan runs in all)")
    private Long iterations;

    @Option(names = "--concurrency", paramLabel = "C", description = "replace the plan's concurrency (plan runs in flight)")
    private Integer concurrency;

    @Option(names = "--rampup", paramLabel = "S", description = "replace the plan's rampup: slot i starts after i x S / C seconds")
    private Integer rampup;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "10",
            description = "a request that gets no bytes for S seconds fails as a timeout (default ${DEFAULT-VALUE})")
    private int timeoutSeconds;

    @Option(names = "--duration", paramLabel = "S",
            description = "measure for S seconds instead of a number of iterations (the plan's iterations are ignored)")
    private Integer durationSeconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "0",
            description = "unmeasured load before measuring, after the rampup (default ${DEFAULT-VALUE})")
    private int warmupSeconds;

    @Option(names = "--rate", paramLabel = "R",
            description = "open model: start R plan runs per second in all, on whichever of the C connections is free, whatever"
                    + " the answers; latency counts from each one's intended send time (default: closed loop, as drill)")
    private String rate;

    @Option(names = "--event-loops", paramLabel = "N", description = "event loop threads (default: cores, at most C)")
    private Integer eventLoops;

    @Option(names = "--quiet", description = "no progress line")
    private boolean quiet;

    @Mixin
    private AgentsOptions agentsOptions;

    @Mixin
    private GeneratorOptions generatorOptions;

    @Override
    public Integer call() {
        Plan plan = PlanParser.parse(planFile).with(baseUrl(), concurrency, iterations, rampup);
        if (timeoutSeconds < 1) {
            throw new UsageException("--timeout: must be at least 1 second, got " + timeoutSeconds);
        }
        if (warmupSeconds < 0) {
            throw new UsageException("--warmup: must be >= 0 seconds, got " + warmupSeconds);
        }
        if (durationSeconds != null && durationSeconds < 1) {
            throw new UsageException("--duration: must be at least 1 second, got " + durationSeconds);
        }
        if (eventLoops != null && eventLoops < 1) {
            throw new UsageException("--event-loops: must be at least 1, got " + eventLoops);
        }
        AgentsOptions.Request agents = agentsOptions.request();
        if (agents != null) {
            agents.checkConcurrency("--concurrency", plan.concurrency());
            if (durationSeconds == null) {
                agents.checkConcurrency("--iterations", plan.iterations());
            }
        }
        Double perSecond = rate == null ? null : perSecond(OfferedRate.parse(rate));
        LoadShape shape = durationSeconds != null
                ? new LoadShape.Timed(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(durationSeconds))
                : new LoadShape.Counted(Duration.ofSeconds(warmupSeconds), plan.iterations());
        int loops = eventLoops != null ? eventLoops : LoadSpec.defaultEventLoops(plan.concurrency());
        GeneratorOptions.Setup setup = generatorOptions.setup();
        if (agents != null && !setup.equals(GeneratorOptions.Setup.DEFAULT)) {
            throw new UsageException("--transport, --source-addresses: for the runner on this machine only (agents run it on their defaults)");
        }
        List<InetAddress> sources = setup.sourceAddresses();
        for (Plan.Step step : plan.steps()) {
            sources = SourceAddresses.forLoad(sources, step.url().getHost(), plan.concurrency(), SourceAddresses.EPHEMERAL_PORTS,
                    console.err()::println);
        }
        LoadSpec spec = new LoadSpec(plan.steps(), plan.concurrency(), Duration.ofSeconds(plan.rampupSeconds()),
                Duration.ofSeconds(timeoutSeconds), shape, loops, perSecond).with(setup.transport(), sources);

        PrintStream out = console.out();
        out.println(String.format("%-25s %s", "Concurrency", plan.concurrency()));
        out.println(String.format("%-25s %s", "Iterations", durationSeconds != null
                ? "until " + durationSeconds + " s have been measured" : plan.iterations()));
        out.println(String.format("%-25s %s", "Rampup", plan.rampupSeconds()));
        out.println(String.format("%-25s %s", "Base URL", plan.base()));
        out.println(String.format("%-25s %s", "Event loops", agents != null ? "each agent's own (its cores)" : loops));
        if (perSecond != null) {
            out.println(String.format(Locale.ROOT, "%-25s %,.1f req/s on %d connections (open model: latency from each"
                    + " request's intended send time)", "Rate", perSecond, plan.concurrency()));
        }
        out.flush();
        LoadResult result;
        if (agents != null) {
            try (ClusterEngine cluster = ClusterEngine.connect(agents, out, "run")) {
                ClusterEngine.Merged merged = cluster.runShares(plan.steps(), plan.concurrency(), perSecond,
                        new Engine.Timing(plan.rampupSeconds(), warmupSeconds, durationSeconds,
                                durationSeconds == null ? plan.iterations() : null, timeoutSeconds, eventLoops == null ? 0 : eventLoops),
                        new LoadRunner.Phases() {});
                result = merged.total();
                DrillSummary.print(result, out);
                merged.agents().forEach(agent -> out.println(String.format(Locale.ROOT, "%-25s %,d connections, %,d requests,"
                        + " %,d failed, %,.1f req/s, p99 %.1f ms, generator CPU %.0f%% of %d", "Agent " + agent.name() + " (" + agent.host()
                        + ")", agent.connections(), agent.requests(), agent.failed(), agent.requestsPerSecond(), agent.p99Ms() == null ? Double.NaN : agent.p99Ms(),
                        100 * agent.generatorCpuShare(), agent.cpus())));
            }
        } else {
            Progress.Sink progress = quiet ? Progress.Sink.NONE
                    : Progress.Sink.forStream(console.err(), Progress.Sink.stderrIsTerminal());
            result = new LoadRunner(spec, new LoadRunner.Phases() {}, progress).run();
            DrillSummary.print(result, out);
        }
        out.flush();
        if (result.requests() > 0 && result.successes() == 0) {
            console.err().println("loadtest: all " + result.requests() + " requests failed: is a server answering at "
                    + plan.base() + "?");
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }

    private static double perSecond(OfferedRate offered) {
        if (offered.ofBound()) {
            throw new UsageException("--rate: " + offered + " is a fraction of the bound, which only compare knows (it sets the"
                    + " servers' delay); give requests/s, e.g. --rate 4000");
        }
        return offered.value();
    }

    private URI baseUrl() {
        if (base == null) {
            return null;
        }
        try {
            URI uri = new URI(base);
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                throw new UsageException("--base: must be an http:// URL with a host, got " + base);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new UsageException("--base: not a URL: " + base);
        }
    }
}
