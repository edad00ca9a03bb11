package dev.threadbench.loadtest;

import dev.threadbench.loadtest.base.Console;
import dev.threadbench.loadtest.base.ExitCodes;
import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.cluster.ClusterEngine;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.GeneratorOptions;
import dev.threadbench.loadtest.engine.TimingOptions;
import dev.threadbench.loadtest.plan.Plan;
import dev.threadbench.loadtest.plan.PlanParser;
import dev.threadbench.loadtest.report.AgentLines;
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

/** {@code run --plan FILE}: drill's job on this runner or, with --agents, on the agents; drill's summary lines. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        resourceBundle = TimingOptions.RUN_WORDING,
        description = "Run a drill plan on the embedded runner and print drill's --stats summary (plus p50, p90, max).")
public final class RunCommand implements Callable<Integer> {

    @ParentCommand
    private Console console;

    @Option(
            names = "--plan",
            required = true,
            paramLabel = "FILE",
            description = "drill plan (YAML), e.g. benchmarks/drill-1000.yml")
    private Path planFile;

    @Option(
            names = "--base",
            paramLabel = "URL",
            description = "replace the plan's base URL (e.g. http://localhost:8081)")
    private String base;

    @Option(
            names = "--concurrency",
            paramLabel = "C",
            description = "replace the plan's concurrency (plan runs in flight)")
    private Integer concurrency;

    /** --rampup, --duration, --iterations, --timeout, --event-loops: as compare's, in run's words. */
    @Mixin
    private TimingOptions timingOptions;

    /** Seconds only: compare's --warmup auto reads the JIT of a server it started, which run has none of. */
    @Option(
            names = "--warmup",
            paramLabel = "S",
            defaultValue = "0",
            description = "unmeasured load before measuring, after the rampup (default ${DEFAULT-VALUE})")
    private int warmupSeconds;

    @Option(
            names = "--rate",
            paramLabel = "R",
            description = "open model: start R plan runs per second in all, on whichever of the C connections is free,"
                    + " whatever the answers; latency counts from each one's intended send time (default: closed loop,"
                    + " as drill)")
    private String rate;

    @Option(names = "--quiet", description = "no progress line")
    private boolean quiet;

    @Mixin
    private AgentsOptions agentsOptions;

    @Mixin
    private GeneratorOptions generatorOptions;

    @Override
    public Integer call() {
        TimingOptions.Given given = timingOptions.given();
        TimingOptions.atLeast("--warmup", warmupSeconds, 0, " seconds");
        Plan plan = PlanParser.parse(planFile).with(baseUrl(), concurrency, given.iterations(), given.rampupSeconds());
        Integer durationSeconds = given.durationSeconds();
        AgentsOptions.Request agents = agentsOptions.request();
        if (agents != null) {
            agents.checkConcurrency("--concurrency", plan.concurrency());
            if (durationSeconds == null) {
                agents.checkConcurrency("--iterations", plan.iterations());
            }
        }
        Double perSecond = rate == null ? null : perSecond(OfferedRate.parse(rate));
        GeneratorOptions.Setup setup = generatorOptions.setup();
        if (agents != null && !setup.equals(GeneratorOptions.Setup.DEFAULT)) {
            throw new UsageException("--transport, --source-addresses: for the runner on this machine only (agents"
                    + " run it on their defaults)");
        }
        Engine.Timing timing = new Engine.Timing(
                plan.rampupSeconds(),
                warmupSeconds,
                durationSeconds,
                durationSeconds == null ? plan.iterations() : null,
                given.timeoutSeconds(),
                given.eventLoops() == null ? 0 : given.eventLoops());

        PrintStream out = console.out();
        printHeader(plan, timing, agents != null, perSecond, out);
        out.flush();
        LoadResult result;
        if (agents != null) {
            try (ClusterEngine cluster = ClusterEngine.connect(agents, out, "run")) {
                result = onAgents(cluster, plan, perSecond, timing, out);
            }
        } else {
            result = here(plan, perSecond, timing, setup);
            DrillSummary.print(result, out);
        }
        out.flush();
        if (result.requests() > 0 && result.successes() == 0) {
            console.err()
                    .println("loadtest: all " + result.requests() + " requests failed: is a server answering at "
                            + plan.base() + "?");
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }

    /** drill's header: the plan's concurrency, iterations, ramp-up, base and event loops, and the open model's rate. */
    private static void printHeader(
            Plan plan, Engine.Timing timing, boolean fromAgents, Double perSecond, PrintStream out) {
        Integer durationSeconds = timing.durationSeconds();
        out.println(String.format("%-25s %s", "Concurrency", plan.concurrency()));
        out.println(String.format(
                "%-25s %s",
                "Iterations",
                durationSeconds != null ? "until " + durationSeconds + " s have been measured" : plan.iterations()));
        out.println(String.format("%-25s %s", "Rampup", plan.rampupSeconds()));
        out.println(String.format("%-25s %s", "Base URL", plan.base()));
        out.println(String.format(
                "%-25s %s",
                "Event loops",
                fromAgents
                        ? "each agent's own (its cores)"
                        : timing.eventLoops() > 0
                                ? timing.eventLoops()
                                : LoadSpec.defaultEventLoops(plan.concurrency())));
        if (perSecond != null) {
            out.println(String.format(
                    Locale.ROOT,
                    "%-25s %,.1f req/s on %d connections (open model: latency from each"
                            + " request's intended send time)",
                    "Rate",
                    perSecond,
                    plan.concurrency()));
        }
    }

    /** The plan on the agents, through the engine compare uses for them: drill's summary, then each agent's line. */
    private static LoadResult onAgents(
            Engine engine, Plan plan, Double perSecond, Engine.Timing timing, PrintStream out) {
        Engine.PlanRun ran =
                engine.runPlan(plan.steps(), plan.concurrency(), perSecond, timing, new LoadRunner.Phases() {});
        DrillSummary.print(ran.result(), out);
        AgentLines.of(ran.outcome().cluster().agents(), ran.outcome().cluster().coordination())
                .forEach(out::println);
        return ran.result();
    }

    /** The plan on the embedded runner in this JVM. */
    private LoadResult here(Plan plan, Double perSecond, Engine.Timing timing, GeneratorOptions.Setup setup) {
        List<InetAddress> sources = setup.sourceAddresses();
        for (Plan.Step step : plan.steps()) {
            sources = SourceAddresses.forLoad(
                    sources,
                    step.url().getHost(),
                    plan.concurrency(),
                    SourceAddresses.EPHEMERAL_PORTS,
                    console.err()::println);
        }
        Duration warmup = Duration.ofSeconds(timing.warmupSeconds());
        LoadShape shape = timing.durationSeconds() != null
                ? new LoadShape.Timed(warmup, Duration.ofSeconds(timing.durationSeconds()))
                : new LoadShape.Counted(warmup, timing.iterations());
        int loops = timing.eventLoops() > 0 ? timing.eventLoops() : LoadSpec.defaultEventLoops(plan.concurrency());
        LoadSpec spec = new LoadSpec(
                        plan.steps(),
                        plan.concurrency(),
                        Duration.ofSeconds(timing.rampupSeconds()),
                        Duration.ofSeconds(timing.timeoutSeconds()),
                        shape,
                        loops,
                        perSecond)
                .with(setup.transport(), sources);
        Progress.Sink progress =
                quiet ? Progress.Sink.NONE : Progress.Sink.forStream(console.err(), Progress.Sink.stderrIsTerminal());
        return new LoadRunner(spec, new LoadRunner.Phases() {}, progress).run();
    }

    private static double perSecond(OfferedRate offered) {
        if (offered.ofBound()) {
            throw new UsageException("--rate: " + offered + " is a fraction of the bound, which only compare knows (it"
                    + " sets the servers' delay); give requests/s, e.g. --rate 4000");
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
