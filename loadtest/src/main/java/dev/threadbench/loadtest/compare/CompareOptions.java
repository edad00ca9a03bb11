package dev.threadbench.loadtest.compare;

import static dev.threadbench.loadtest.engine.TimingOptions.atLeast;

import dev.threadbench.common.OptionException;
import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.engine.EngineKind;
import dev.threadbench.loadtest.engine.TimingOptions;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.host.PinningOptions;
import dev.threadbench.loadtest.profile.ProfileMode;
import dev.threadbench.loadtest.server.RunningServer;
import dev.threadbench.loadtest.server.ServerArgs;
import dev.threadbench.loadtest.server.ServerJarOptions;
import dev.threadbench.loadtest.server.ServerKind;
import dev.threadbench.loadtest.server.VariantJars;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * compare's options, and their check into {@link CompareSettings}: one line naming what is wrong. The check leaves the
 * options as given: each {@link #validate} computes the settings afresh.
 */
final class CompareOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(
            names = "--quick",
            description = "shorter runs: 3 rounds of 4 s warm-up + 4 s measured (default 6 rounds of auto + 2 s):"
                    + " about 3.5 minutes in all, too few rounds for the verdict to name a difference; with"
                    + " --sweep: one round of 2 s warm-up + 4 s measured per point, about 31 minutes by its"
                    + " estimate")
    private boolean quick;

    /** --sweep, --sweep-max, --resolution. */
    @Mixin
    private SweepOptions sweepOptions;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "results",
            description = "where results.json, report.html and the server logs go (default ${DEFAULT-VALUE})")
    private Path out;

    @Option(
            names = "--targets",
            paramLabel = "NAME=URL[,NAME=URL...]",
            description = "compare servers already running instead of starting the jars, e.g."
                    + " undertow=http://undertow:8080,vertx=http://vertx:8081: never stopped, their own options and"
                    + " strategies apply; their CPU, threads and RSS are read from their /stats. Any NAME of letters,"
                    + " digits and dashes (a=URL,b=URL: a server and a copy of itself); undertow and vertx must be"
                    + " those servers, another may have no /stats (its counts and cost then n/a)")
    private String targets;

    @Option(
            names = "--servers",
            paramLabel = "LIST",
            split = ",",
            defaultValue = "undertow,vertx",
            description = "servers to compare (default ${DEFAULT-VALUE}); SERVER@VERSION builds one against another"
                    + " version of its framework (undertow@2.3.27.Final,undertow; kept in target/variants/) and"
                    + " compares it like another server")
    private List<String> servers;

    @Option(
            names = "--strategies",
            paramLabel = "default|all|LIST",
            defaultValue = "default",
            description = "default (each server's own), all (blocking, timer and virtual on each) or a list such as"
                    + " virtual,timer (default: ${DEFAULT-VALUE})")
    private String strategies;

    @Option(
            names = "--concurrency",
            paramLabel = "LIST",
            split = ",",
            defaultValue = "1000,2000",
            description = "concurrent connections, one run each (default ${DEFAULT-VALUE}; --sweep:"
                    + " 250,500,1000,2000,5000,10000)")
    private List<Integer> concurrencies;

    @Option(
            names = "--rate",
            paramLabel = "LIST",
            split = ",",
            description = "open model: requests/s (4000) or fractions of each concurrency's bound (0.5x,0.9x,1.1x),"
                    + " one run each, scheduled whatever the answers, latency from each request's intended send time;"
                    + " on enough connections for the requests in flight unless --concurrency is given (default:"
                    + " closed loop)")
    private List<String> rates;

    @Option(
            names = "--engine",
            paramLabel = "NAME",
            defaultValue = "embedded",
            description = "embedded (this runner), wrk or drill (when installed) (default ${DEFAULT-VALUE})")
    private String engine;

    /** auto or seconds: see {@link CompareTiming}. */
    @Option(
            names = "--warmup",
            paramLabel = "auto|S",
            description = "unmeasured load after the ramp-up: auto ends it"
                    + " once the server's JIT used under 3 %% of its CPU in two 2 s periods in a row,"
                    + " at most " + RunLength.AUTO_WARMUP_CAP_SECONDS
                    + " s, on a whole delay period (embedded"
                    + " engine, closed loop); S: a fixed number of seconds (default auto; --quick 4; --sweep 2; another"
                    + " engine, --agents or --rate 8)")
    private String warmup;

    /** --duration, --iterations, --rampup, --timeout, --event-loops: as run's, in compare's words. */
    @Mixin
    private TimingOptions timingOptions;

    @Option(
            names = "--delay-every",
            paramLabel = "N",
            defaultValue = "10",
            description = "passed to both servers (with --targets: must be the servers' own): delay every Nth request;"
                    + " sets the bound (default ${DEFAULT-VALUE})")
    private int delayEvery;

    @Option(
            names = "--delay-ms",
            paramLabel = "MS",
            defaultValue = "2000",
            description = "passed to both servers (with --targets: must be the servers' own): how long a delayed"
                    + " request waits; sets the bound (default ${DEFAULT-VALUE})")
    private long delayMs;

    /** G1 named: a JVM told it has one CPU (a pinned server on 2 cores) would pick the serial collector. */
    @Option(
            names = "--jvm-opts",
            paramLabel = "OPTS",
            defaultValue = "-Xms512m -Xmx2g -XX:+UseG1GC",
            description = "JVM options for both servers, the same for each (default ${DEFAULT-VALUE})")
    private String jvmOptions;

    @Option(
            names = "--server-args",
            paramLabel = "ARGS",
            description = "more server options for both servers, e.g. \"--workers 16\" (not --port, --host,"
                    + " --delay-every, --delay-ms or --strategy, which compare sets)")
    private String serverArgs;

    @Option(
            names = "--work-us",
            paramLabel = "N",
            defaultValue = "0",
            description = "passed to every server compare starts: N microseconds of CPU on the thread that answers each"
                    + " request to /, before it answers (default ${DEFAULT-VALUE}; with --targets: give it to the"
                    + " servers)")
    private long workMicros;

    @Mixin
    private ServerJarOptions jarOptions;

    @Option(
            names = "--repeat",
            paramLabel = "N",
            description = "rounds: every server at every concurrency N times, the servers' order reversed each round;"
                    + " each figure shown as the median and range of its rounds; the verdict names differences"
                    + " from 6 rounds a side with 2 concurrencies"
                    + " (default 6; --sweep 3, --sweep --quick 1)")
    private Integer repeatRounds;

    @Option(
            names = "--profile",
            paramLabel = "cpu|wall|alloc",
            description = "profile each server compare starts over each measured window (async-profiler): cpu"
                    + " (timer-based, no perf events needed), wall (where threads wait) or alloc; flame graphs in"
                    + " DIR/profiles, each run's share per bucket in the report; with --sweep every run too, and the"
                    + " report sets each pair's at 2000 and at its largest concurrency held side by side (default:"
                    + " off)")
    private String profile;

    @Mixin
    private PinningOptions pinningOptions;

    @Mixin
    private AgentsOptions agentsOptions;

    @Option(
            names = "--server-host",
            paramLabel = "ADDR",
            description = "the address the servers compare starts"
                    + " listen on, where --agents reach them (default 127.0.0.1)")
    private String serverHost;

    CompareSettings validate() {
        return validate(System.err);
    }

    /**
     * The options checked into settings, the options themselves left as given.
     *
     * @param progress where building a server against another framework version (--servers undertow@VERSION) says so
     */
    CompareSettings validate(PrintStream progress) {
        EngineKind engineKind = EngineKind.parse(engine);
        TimingOptions.Given given = timingOptions.given();
        Map<String, URI> running = targets == null ? Map.of() : RunningServer.parseTargets(targets);
        if (!running.isEmpty()) {
            refuseWithTargets();
        }
        AgentsOptions.Request agents = agentsOptions.request();
        boolean sweep = sweepOptions.on();
        RunLength defaults = RunLength.of(sweep, quick);
        CompareSettings.Sweep sweepSettings = sweepOptions.settings();
        List<Integer> concurrencyList = sweep ? sweepGrid(!running.isEmpty(), agents != null) : concurrencies;
        String strategiesGiven = sweep && running.isEmpty() && !matched("--strategies") ? "all" : strategies;
        checkServers();
        List<String> strategyList = strategyList(strategiesGiven);
        checkLoad(concurrencyList, given);
        CpuPinning pinning = CpuPinning.decide(pinningOptions.request(!running.isEmpty()));
        CompareSettings.Workload workload = new CompareSettings.Workload(delayEvery, delayMs);
        CompareTiming timing = CompareTiming.of(
                warmup,
                given,
                defaults,
                sweep,
                engineKind == EngineKind.EMBEDDED && agents == null && rates == null,
                workload,
                agents != null ? 0 : pinning.generatorCpuCount());
        int repeat = repeatRounds != null ? repeatRounds : defaults.rounds();
        atLeast("--delay-every", delayEvery, 0, "");
        atLeast("--delay-ms", delayMs, 0, "");
        atLeast("--repeat", repeat, 1, " round");
        checkEngineFits(engineKind, agents, sweep, given, concurrencyList);
        String host = serverHost == null ? null : ServerArgs.address("--server-host", serverHost);
        if (agents != null && running.isEmpty()) {
            ServerArgs.checkReachable(host, agents.cluster().host());
        }
        List<CompareSettings.Load> loads = CompareSettings.Load.plan(
                concurrencyList,
                rates == null ? null : rates.stream().map(OfferedRate::parse).toList(),
                matched("--concurrency"),
                delayEvery,
                delayMs);
        List<String> checkedServerArgs =
                ServerArgs.check(serverArgs == null ? List.of() : words(serverArgs), workMicros);
        Map<String, Path> jars = running.isEmpty() ? jarOptions.jars(servers, progress) : Map.of();
        List<Planned> planned = running.isEmpty()
                ? jars.keySet().stream()
                        .flatMap(server -> strategyList.stream().map(strategy -> new Planned(server, strategy)))
                        .toList()
                : running.keySet().stream()
                        .map(server -> new Planned(server, null))
                        .toList();
        return new CompareSettings(
                new CompareSettings.Runs(planned, running, strategiesGiven, concurrencyList, loads, repeat),
                workload,
                new CompareSettings.Servers(words(jvmOptions), checkedServerArgs, jars, host),
                new CompareSettings.Generator(engineKind, timing.timing(), timing.windowNote(), agents),
                pinning,
                out.toAbsolutePath().normalize(),
                sweepSettings);
    }

    /** --sweep's concurrencies: those given, else the grid up to what the machine holds. */
    private List<Integer> sweepGrid(boolean running, boolean fromAgents) {
        return sweepOptions.grid(
                matched("--concurrency") ? concurrencies : null, running, fromAgents, words(jvmOptions));
    }

    /** The open model and the agents run on the embedded engine only; the agents split each run's connections. */
    private void checkEngineFits(
            EngineKind engineKind,
            AgentsOptions.Request agents,
            boolean sweep,
            TimingOptions.Given given,
            List<Integer> concurrencyList) {
        if (rates != null && sweep) {
            throw new UsageException("--rate: not with --sweep, which drives each concurrency in a closed loop");
        }
        if (rates != null && engineKind != EngineKind.EMBEDDED) {
            throw new UsageException("--rate: the open model runs on the embedded engine only, not --engine " + engine);
        }
        if (agents != null) {
            if (engineKind != EngineKind.EMBEDDED) {
                throw new UsageException("--agents: the agents run the embedded runner, not --engine " + engine);
            }
            concurrencyList.forEach(c -> agents.checkConcurrency("--concurrency", c));
            if (given.iterations() != null) {
                agents.checkConcurrency("--iterations", given.iterations());
            }
        }
    }

    /** What compare cannot do to servers it did not start. */
    private void refuseWithTargets() {
        refuseWithTargets("--servers", "--targets names the servers");
        refuseWithTargets("--jvm-opts", "the running servers' JVMs are already started");
        List.of("--server-args", "--undertow-jar", "--vertx-jar", "--server-host")
                .forEach(option -> refuseWithTargets(option, "compare starts no server"));
        refuseWithTargets("--work-us", "compare starts no server: give it to the servers themselves");
        if (!strategies.trim().equalsIgnoreCase("default")) {
            throw new UsageException("--strategies: not with --targets: the running servers keep their own strategies"
                    + " (see their /stats)");
        }
    }

    /** --profile checked: null when off. Checked before the runs, so that a bad mode costs none. */
    ProfileMode profileMode() {
        return profile == null ? null : ProfileMode.parse(profile);
    }

    private void checkServers() {
        if (servers.isEmpty()) {
            throw new UsageException("--servers: name at least one of " + String.join(", ", ServerKind.NAMES));
        }
        for (String server : servers) {
            VariantJars.Variant variant = VariantJars.parse(server);
            if (!ServerKind.NAMES.contains(variant == null ? server : variant.server())) {
                throw new UsageException("--servers: unknown server '" + server + "' (expected "
                        + String.join(", ", ServerKind.NAMES) + ")");
            }
        }
        if (servers.stream().distinct().count() != servers.size()) {
            throw new UsageException("--servers: a server is named twice: " + String.join(",", servers));
        }
    }

    /** null stands for the server's own default. */
    private static List<String> strategyList(String strategies) {
        List<String> list = switch (strategies.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> Arrays.asList((String) null);
            case "all" -> Arrays.stream(Strategy.values()).map(Strategy::id).toList();
            default -> Arrays.stream(strategies.split(",")).map(String::trim).toList();
        };
        for (String strategy : list) {
            if (strategy != null) {
                try {
                    Strategy.of(strategy);
                } catch (OptionException e) {
                    throw new UsageException("--strategies: unknown strategy '" + strategy + "' (expected"
                            + " default, all, or some of " + Strategy.ids() + ")");
                }
            }
        }
        return list;
    }

    /** The concurrencies, and --iterations against them; a run counted or timed, not both (run's --duration wins). */
    private static void checkLoad(List<Integer> concurrencies, TimingOptions.Given given) {
        concurrencies.forEach(c -> atLeast("--concurrency", c, 1, ""));
        Long iterations = given.iterations();
        if (iterations != null && given.durationSeconds() != null) {
            throw new UsageException("--iterations and --duration: give one or the other");
        }
        if (iterations != null) {
            for (int c : concurrencies) {
                if (c > iterations) {
                    throw new UsageException("--iterations: concurrency (" + c + ") can not be higher than iterations ("
                            + iterations + ")");
                }
            }
        }
    }

    private boolean matched(String option) {
        return command.commandLine().getParseResult().hasMatchedOption(option);
    }

    private void refuseWithTargets(String option, String why) {
        if (matched(option)) {
            throw new UsageException(option + ": not with --targets: " + why);
        }
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.trim().split("\\s+"))
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
