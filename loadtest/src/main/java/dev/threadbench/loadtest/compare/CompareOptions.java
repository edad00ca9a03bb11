package dev.threadbench.loadtest.compare;

import dev.threadbench.common.OptionException;
import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.base.OfferedRate;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.cluster.AgentsOptions;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.profile.ProfileMode;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** compare's options, and their check into {@link CompareSettings}: one line naming what is wrong. */
final class CompareOptions {

    static final List<String> SERVERS = List.of("undertow", "vertx");
    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--quick", description = "shorter runs: 3 rounds of 4 s warm-up + 4 s measured (default 8 + 16): about 3.5 minutes"
            + " in all; with --sweep: one round of 2 + 4 s per point, about 22 minutes")
    private boolean quick;

    @Option(names = "--sweep", description = "every server x strategy over concurrency 250,500,1000,2000,5000,10000,20000,50000..."
            + " up to --sweep-max (--concurrency overrides), 3 rounds of 2 s ramp-up + 2 s warm-up + 6 s measured per point, then"
            + " each pair narrowed in between the last concurrency held and the first not held (--resolution): about 65 minutes"
            + " on 2 cores; report adds curves, memory per 1,000 connections and breaking points")
    private boolean sweep;

    @Option(names = "--sweep-max", paramLabel = "N", description = "with --sweep: the largest concurrency, the grid's last point"
            + " (default: the most this machine's descriptors and memory allow, the next grid point shown as not run)")
    private Integer sweepMax;

    @Option(names = "--resolution", paramLabel = "PERCENT", description = "with --sweep: narrow each pair in until the first"
            + " concurrency not held is within PERCENT of the last held, e.g. 10%% or 10 (default 10%%)")
    private String resolution;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "where results.json, report.html and the server logs go (default ${DEFAULT-VALUE})")
    private Path out;

    @Option(names = "--targets", paramLabel = "NAME=URL[,NAME=URL...]",
            description = "compare servers already running instead of starting the jars, e.g. undertow=http://undertow:8080,"
                    + "vertx=http://vertx:8081: never stopped, their own options and strategies apply; their CPU, threads and RSS"
                    + " are read from their /stats")
    private String targets;

    @Option(names = "--servers", paramLabel = "LIST", split = ",", defaultValue = "undertow,vertx",
            description = "servers to compare (default ${DEFAULT-VALUE}); SERVER@VERSION builds one against another version of its"
                    + " framework (undertow@2.3.27.Final,undertow; kept in target/variants/) and compares it like another server")
    private List<String> servers;

    @Option(names = "--strategies", paramLabel = "default|all|LIST", defaultValue = "default",
            description = "default (each server's own), all (blocking, timer and virtual on each) or a list such as virtual,timer (default: ${DEFAULT-VALUE})")
    private String strategies;

    @Option(names = "--concurrency", paramLabel = "LIST", split = ",", defaultValue = "1000,2000",
            description = "concurrent connections, one run each (default ${DEFAULT-VALUE}; --sweep: 250,500,1000,2000,5000,10000)")
    private List<Integer> concurrencies;

    @Option(names = "--rate", paramLabel = "LIST", split = ",",
            description = "open model: requests/s (4000) or fractions of each concurrency's bound (0.5x,0.9x,1.1x), one run each,"
                    + " scheduled whatever the answers, latency from each request's intended send time; on enough connections for"
                    + " the requests in flight unless --concurrency is given (default: closed loop)")
    private List<String> rates;

    @Option(names = "--engine", paramLabel = "NAME", defaultValue = "embedded",
            description = "embedded (this runner), wrk or drill (when installed) (default ${DEFAULT-VALUE})")
    private String engine;

    @Option(names = "--warmup", paramLabel = "auto|S", description = "unmeasured load after the ramp-up: auto ends it once the"
            + " server's JIT compiled under " + RunLength.AUTO_WARMUP_JIT_MS_PER_SECOND + " ms a second over the last 2 s, at"
            + " most " + RunLength.AUTO_WARMUP_CAP_SECONDS + " s, on a whole delay period (embedded engine, closed loop); S: a"
            + " fixed number of seconds (default auto; --quick 4; --sweep 2; another engine, --agents or --rate 8)")
    private String warmup;

    @Option(names = "--duration", paramLabel = "S", description = "measured seconds per run, rounded up to whole delay periods"
            + " (default 16; --quick 4)")
    private Integer durationSeconds;

    @Option(names = "--iterations", paramLabel = "N",
            description = "measure N requests per run instead of a duration (the plans' 1000000, say)")
    private Long iterations;

    @Option(names = "--rampup", paramLabel = "S",
            description = "connections open spread over S seconds, as in the plans (default 2)")
    private Integer rampupSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "10",
            description = "a request with no answer for S seconds fails as a timeout (default ${DEFAULT-VALUE})")
    private int timeoutSeconds;

    @Option(names = "--delay-every", paramLabel = "N", defaultValue = "10",
            description = "passed to both servers (with --targets: must be the servers' own): delay every Nth request;"
                    + " sets the bound (default ${DEFAULT-VALUE})")
    private int delayEvery;

    @Option(names = "--delay-ms", paramLabel = "MS", defaultValue = "2000",
            description = "passed to both servers (with --targets: must be the servers' own): how long a delayed request"
                    + " waits; sets the bound (default ${DEFAULT-VALUE})")
    private long delayMs;

    /** G1 named: a JVM told it has one CPU (a pinned server on 2 cores) would pick the serial collector. */
    @Option(names = "--jvm-opts", paramLabel = "OPTS", defaultValue = "-Xms512m -Xmx2g -XX:+UseG1GC",
            description = "JVM options for both servers, the same for each (default ${DEFAULT-VALUE})")
    private String jvmOptions;

    @Option(names = "--server-args", paramLabel = "ARGS",
            description = "more server options for both servers, e.g. \"--workers 16\" (not --port, --host, --delay-every,"
                    + " --delay-ms or --strategy, which compare sets)")
    private String serverArgs;

    @Option(names = "--undertow-jar", paramLabel = "JAR", description = "default: undertow-server/target/undertow-server.jar under the project")
    private Path undertowJar;

    @Option(names = "--vertx-jar", paramLabel = "JAR", description = "default: vertx-server/target/vertx-server.jar under the project")
    private Path vertxJar;

    @Option(names = "--event-loops", paramLabel = "N",
            description = "the embedded runner's event loops (default: one per generator CPU)")
    private Integer eventLoops;

    @Option(names = "--repeat", paramLabel = "N",
            description = "rounds: every server at every concurrency N times, the servers' order reversed each round;"
                    + " each figure shown as the median and range of its rounds; the verdict judges from 2 rounds"
                    + " (default 3; --sweep 3, --sweep --quick 1)")
    private Integer repeatRounds;

    @Option(names = "--profile", paramLabel = "cpu|wall|alloc",
            description = "profile each server compare starts over each measured window (async-profiler): cpu (timer-based, no perf"
                    + " events needed), wall (where threads wait) or alloc; flame graphs in DIR/profiles, each run's share per bucket"
                    + " in the report; with --sweep every run too, and the report sets each pair's at 2000 and at its largest"
                    + " concurrency held side by side (default: off)")
    private String profile;

    @Mixin
    private PinningOptions pinningOptions;

    @Mixin
    private AgentsOptions agentsOptions;

    @Option(names = "--server-host", paramLabel = "ADDR",
            description = "the address the servers compare starts listen on, where --agents reach them (default 127.0.0.1)")
    private String serverHost;

    CompareSettings validate() {
        return validate(System.err);
    }

    /** @param progress where building a server against another framework version (--servers undertow@VERSION) says so */
    CompareSettings validate(PrintStream progress) {
        Map<String, URI> running = targets == null ? Map.of() : RunningServer.parseTargets(targets);
        if (!running.isEmpty()) {
            refuseWithTargets("--servers", "--targets names the servers");
            refuseWithTargets("--jvm-opts", "the running servers' JVMs are already started");
            List.of("--server-args", "--undertow-jar", "--vertx-jar", "--server-host").forEach(option -> refuseWithTargets(option, "compare starts no server"));
            if (!strategies.trim().equalsIgnoreCase("default")) {
                throw new UsageException("--strategies: not with --targets: the running servers keep their own strategies (see their /stats)");
            }
        }
        RunLength defaults = RunLength.of(sweep, quick);
        Double sweepResolution = sweepResolution();
        if (sweep) {
            concurrencies = sweepConcurrencies(!running.isEmpty(), agentsOptions.request() != null);
        } else if (sweepMax != null) {
            throw new UsageException("--sweep-max: only with --sweep");
        }
        if (sweep && running.isEmpty() && !matched("--strategies")) {
            strategies = "all";
        }
        checkServers();
        List<String> strategyList = strategyList();
        checkLoad();
        Integer fixedWarmup = fixedWarmup();
        boolean autoWarmupPossible = "embedded".equalsIgnoreCase(engine) && agentsOptions.request() == null && rates == null
                && iterations == null && delayEvery > 0 && delayMs > 0;
        if (fixedWarmup == null && warmup != null && !autoWarmupPossible) {
            throw new UsageException("--warmup auto: only on the embedded engine, in a closed loop (not --rate), timed (not"
                    + " --iterations), with a delay, and not with --agents; give seconds instead");
        }
        if (fixedWarmup == null && warmup != null && sweep) {
            throw new UsageException("--warmup auto: not with --sweep, whose grid keeps a fixed warm-up (each server runs its"
                    + " concurrencies lowest first); give seconds instead");
        }
        boolean autoWarmup = fixedWarmup == null && autoWarmupPossible && (warmup != null || defaults.autoWarmup());
        int warmupSeconds = autoWarmup ? RunLength.AUTO_WARMUP_CAP_SECONDS : fixedWarmup != null ? fixedWarmup
                : defaults.autoWarmup() ? RunLength.FIXED_WARMUP_SECONDS : defaults.warmupSeconds();
        Integer duration = iterations != null ? null : durationSeconds != null ? durationSeconds : defaults.durationSeconds();
        String windowNote = null;
        if (duration != null && duration >= 1 && delayEvery >= 0 && delayMs >= 0) {
            int whole = RunLength.wholePeriods(duration, delayEvery, delayMs);
            windowNote = RunLength.roundedNote(durationSeconds != null ? "--duration" : "the default window", duration, whole, delayMs);
            duration = whole;
        }
        int rampup = rampupSeconds != null ? rampupSeconds : defaults.rampupSeconds();
        int repeat = repeatRounds != null ? repeatRounds : defaults.rounds();
        atLeast("--warmup", warmupSeconds, 0, " seconds");
        atLeast("--duration", duration != null ? duration : 1, 1, " second");
        atLeast("--rampup", rampup, 0, " seconds");
        atLeast("--timeout", timeoutSeconds, 1, " second");
        atLeast("--delay-every", delayEvery, 0, "");
        atLeast("--delay-ms", delayMs, 0, "");
        atLeast("--event-loops", eventLoops != null ? eventLoops : 1, 1, "");
        atLeast("--repeat", repeat, 1, " round");
        if (rates != null && sweep) {
            throw new UsageException("--rate: not with --sweep, which drives each concurrency in a closed loop");
        }
        if (rates != null && !"embedded".equalsIgnoreCase(engine)) {
            throw new UsageException("--rate: the open model runs on the embedded engine only, not --engine " + engine);
        }
        AgentsOptions.Request agents = agentsOptions.request();
        if (agents != null) {
            if (!"embedded".equalsIgnoreCase(engine)) {
                throw new UsageException("--agents: the agents run the embedded runner, not --engine " + engine);
            }
            concurrencies.forEach(c -> agents.checkConcurrency("--concurrency", c));
            if (iterations != null) {
                agents.checkConcurrency("--iterations", iterations);
            }
        }
        if (serverHost != null) {
            serverHost = ServerArgs.address("--server-host", serverHost);
        }
        if (agents != null && running.isEmpty()) {
            ServerArgs.checkReachable(serverHost, agents.cluster().host());
        }
        List<CompareSettings.Load> loads = CompareSettings.Load.plan(concurrencies,
                rates == null ? null : rates.stream().map(OfferedRate::parse).toList(), matched("--concurrency"), delayEvery, delayMs);
        CpuPinning pinning = CpuPinning.decide(pinningOptions.request(!running.isEmpty()));
        List<String> checkedServerArgs = ServerArgs.check(serverArgs == null ? List.of() : words(serverArgs));
        Map<String, Path> jars = new LinkedHashMap<>();
        List<Planned> planned = new ArrayList<>();
        if (running.isEmpty()) {
            for (String server : servers) {
                VariantJars.Variant variant = VariantJars.parse(server);
                String base = variant == null ? server : variant.server();
                Path given = "undertow".equals(base) ? undertowJar : vertxJar;
                jars.put(server, variant == null ? ProjectLayout.jar(server, given)
                        : VariantJars.jar(variant, given != null ? given : ProjectLayout.defaultJar(base), ProjectLayout.root(), progress,
                        VariantJars.MAVEN));
                strategyList.forEach(strategy -> planned.add(new Planned(server, strategy)));
            }
        } else {
            running.keySet().forEach(server -> planned.add(new Planned(server, null)));
        }
        Engine.Timing timing = new Engine.Timing(rampup, warmupSeconds, duration, iterations, timeoutSeconds,
                eventLoops != null ? eventLoops : agents != null ? 0 : pinning.generatorCpuCount(), autoWarmup ? delayMs : 0);
        return new CompareSettings(planned, running, strategies, concurrencies, loads, repeat, engine, timing, delayEvery, delayMs,
                words(jvmOptions), checkedServerArgs, jars, pinning, out.toAbsolutePath().normalize(), sweep, agents, serverHost,
                windowNote, sweepResolution);
    }

    /** --warmup's seconds; null for auto or not given. */
    private Integer fixedWarmup() {
        if (warmup == null || warmup.trim().equalsIgnoreCase("auto")) {
            return null;
        }
        try {
            return Integer.parseInt(warmup.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--warmup: expected auto or a number of seconds, got '" + warmup + "'");
        }
    }

    /** --resolution as a fraction (10% or 10: 0.1); the default with --sweep; null without. */
    private Double sweepResolution() {
        if (resolution == null) {
            return sweep ? RunLength.SWEEP_RESOLUTION : null;
        }
        if (!sweep) {
            throw new UsageException("--resolution: only with --sweep");
        }
        String number = resolution.trim();
        number = number.endsWith("%") ? number.substring(0, number.length() - 1).trim() : number;
        double percent;
        try {
            percent = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new UsageException("--resolution: not a percentage: '" + resolution + "' (give e.g. 10% or 10)");
        }
        if (!(percent > 0 && percent < 100)) {
            throw new UsageException("--resolution: must be more than 0 % and less than 100 %, got '" + resolution + "'");
        }
        return percent / 100;
    }

    /**
     * The sweep's grid: --concurrency as given, or the default grid; capped at --sweep-max when given. By default it
     * goes as far as this machine can hold (Headroom, checked as compare checks it before the first run), and the next
     * grid point after that is planned too, so that compare skips it with the machine's reason and a pair that held
     * at every point reads as the machine's limit, not as none.
     */
    private List<Integer> sweepConcurrencies(boolean targetsGiven, boolean agentsGiven) {
        List<Integer> grid = matched("--concurrency") ? concurrencies : null;
        int smallest = grid == null ? RunLength.SWEEP_CONCURRENCIES.getFirst() : grid.stream().min(Integer::compare).orElse(1);
        if (sweepMax != null) {
            atLeast("--sweep-max", sweepMax, 1, "");
            if (sweepMax < smallest) {
                throw new UsageException(String.format(Locale.ROOT, "--sweep-max: must be at least the sweep's smallest"
                        + " concurrency, %d, got %d", smallest, sweepMax));
            }
            return grid == null ? RunLength.sweepGrid(sweepMax) : RunLength.capped(grid, sweepMax);
        }
        if (grid != null) {
            return grid;
        }
        // with agents and running servers, neither the connections nor the servers are on this machine: nothing known
        OptionalInt largest = agentsGiven && targetsGiven ? OptionalInt.empty()
                : Headroom.largest(!targetsGiven, words(jvmOptions), Headroom.Machine.probe());
        if (largest.isEmpty()) {
            return RunLength.sweepGrid(RunLength.SWEEP_MAX_UNKNOWN);
        }
        int most = Math.max(RunLength.roundDown(largest.getAsInt()), smallest);
        List<Integer> planned = new ArrayList<>(RunLength.sweepGrid(most));
        planned.add(RunLength.nextGridPoint(most));
        return planned;
    }

    /** --profile checked: null when off. Checked before the runs, so that a bad mode costs none. */
    ProfileMode profileMode() {
        return profile == null ? null : ProfileMode.parse(profile);
    }

    private void checkServers() {
        if (servers.isEmpty()) {
            throw new UsageException("--servers: name at least one of " + String.join(", ", SERVERS));
        }
        for (String server : servers) {
            VariantJars.Variant variant = VariantJars.parse(server);
            if (!SERVERS.contains(variant == null ? server : variant.server())) {
                throw new UsageException("--servers: unknown server '" + server + "' (expected " + String.join(", ", SERVERS) + ")");
            }
        }
        if (servers.stream().distinct().count() != servers.size()) {
            throw new UsageException("--servers: a server is named twice: " + String.join(",", servers));
        }
    }

    /** null stands for the server's own default. */
    private List<String> strategyList() {
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
                    throw new UsageException("--strategies: unknown strategy '" + strategy + "' (expected default, all, or some of "
                            + Strategy.ids() + ")");
                }
            }
        }
        return list;
    }

    private void checkLoad() {
        concurrencies.forEach(c -> atLeast("--concurrency", c, 1, ""));
        if (iterations != null && durationSeconds != null) {
            throw new UsageException("--iterations and --duration: give one or the other");
        }
        if (iterations != null) {
            for (int c : concurrencies) {
                if (c > iterations) {
                    throw new UsageException("--iterations: concurrency (" + c + ") can not be higher than iterations (" + iterations + ")");
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

    /** The one line for a number below its least: "--repeat: must be at least 1 round, got 0". */
    private static void atLeast(String option, long value, long least, String unit) {
        if (value < least) {
            throw new UsageException(option + ": must be at least " + least + unit + ", got " + value);
        }
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
