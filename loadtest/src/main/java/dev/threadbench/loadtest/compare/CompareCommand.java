package dev.threadbench.loadtest.compare;

import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.BuildInfo;
import dev.threadbench.loadtest.Main;
import dev.threadbench.loadtest.UsageException;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.HtmlReport;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.report.ResultsJson;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The main job: each server from its jar (or, with --targets, already running elsewhere), one at a time,
 * driven at each concurrency; results side by side in the terminal, in DIR/results.json and in DIR/report.html.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start each server from its jar (or reach it already running: --targets), drive it at each concurrency,"
                + " and compare them side by side.")
public final class CompareCommand implements Callable<Integer> {

    static final List<String> SERVERS = List.of("undertow", "vertx");
    /**
     * Default timings: about 5 minutes in all on 2 cores, --quick under 3. The warm-up is long enough for
     * the JIT of both JVMs (server and generator) to settle at 2000 connections; shorter, the generator's
     * first run measures its own compiler.
     */
    static final int WARMUP = 15;
    static final int DURATION = 50;
    static final int QUICK_WARMUP = 10;
    static final int QUICK_DURATION = 15;
    /** A generator using this share of its half of the machine or more is flagged: its figure may be its own limit. */
    static final double GENERATOR_BOUND_SHARE = 0.9;

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "shorter runs: 10 s warm-up + 15 s measured (default 15 + 50): under 3 minutes in all")
    private boolean quick;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "where results.json, report.html and the server logs go (default ${DEFAULT-VALUE})")
    private Path out;

    @Option(names = "--targets", paramLabel = "NAME=URL[,NAME=URL...]",
            description = "compare servers already running instead of starting the jars, e.g. undertow=http://undertow:8080,"
                    + "vertx=http://vertx:8081: never stopped, their own options and strategies apply, server CPU and RSS not measured")
    private String targets;

    @Option(names = "--servers", paramLabel = "LIST", split = ",", defaultValue = "undertow,vertx",
            description = "servers to compare (default ${DEFAULT-VALUE})")
    private List<String> servers;

    @Option(names = "--strategies", paramLabel = "default|all|LIST", defaultValue = "default",
            description = "default (each server's own), all (blocking, timer and virtual on each) or a list such as virtual,timer (default: ${DEFAULT-VALUE})")
    private String strategies;

    @Option(names = "--concurrency", paramLabel = "LIST", split = ",", defaultValue = "1000,2000",
            description = "concurrent connections, one run each (default ${DEFAULT-VALUE})")
    private List<Integer> concurrencies;

    @Option(names = "--engine", paramLabel = "NAME", defaultValue = "embedded",
            description = "embedded (this runner), wrk or drill (when installed) (default ${DEFAULT-VALUE})")
    private String engineName;

    @Option(names = "--warmup", paramLabel = "S", description = "unmeasured seconds after the ramp-up (default 15; --quick 10)")
    private Integer warmupSeconds;

    @Option(names = "--duration", paramLabel = "S", description = "measured seconds per run (default 50; --quick 15)")
    private Integer durationSeconds;

    @Option(names = "--iterations", paramLabel = "N",
            description = "measure N requests per run instead of a duration (the plans' 1000000, say)")
    private Long iterations;

    @Option(names = "--rampup", paramLabel = "S", defaultValue = "2",
            description = "connections open spread over S seconds, as in the plans (default ${DEFAULT-VALUE})")
    private int rampupSeconds;

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

    @Option(names = "--jvm-opts", paramLabel = "OPTS", defaultValue = "-Xms512m -Xmx2g",
            description = "JVM options for both servers, the same for each (default ${DEFAULT-VALUE})")
    private String jvmOptions;

    @Option(names = "--undertow-jar", paramLabel = "JAR", description = "default: undertow-server/target/undertow-server.jar under the project")
    private Path undertowJar;

    @Option(names = "--vertx-jar", paramLabel = "JAR", description = "default: vertx-server/target/vertx-server.jar under the project")
    private Path vertxJar;

    @Option(names = "--event-loops", paramLabel = "N", description = "the embedded runner's event loops (default: cores)")
    private Integer eventLoops;

    /** One planned run, before it happens. */
    record Planned(String server, String strategy) {}

    @Override
    public Integer call() {
        Settings settings = validate();
        PrintStream out = main.out();
        PrintStream err = main.err();
        Engine engine = Engine.named(engineName, err, Progress.Sink.stderrIsTerminal());
        engine.checkWorkload(delayEvery, delayMs);
        try {
            Files.createDirectories(settings.running() ? out() : out().resolve("logs"));
        } catch (IOException e) {
            throw new UsageException("--out: cannot create " + out() + ": " + e.getMessage());
        }
        List<Planned> planned = plan(settings);
        printHeader(out, settings, planned);
        Map<String, RunningServer> running = connect(settings.targets(), out);

        Map<String, String> versions = new LinkedHashMap<>();
        List<Results.Run> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Planned p : planned) {
            Path log = out().resolve("logs").resolve(p.server() + "-" + (p.strategy() == null ? "default" : p.strategy()) + ".log");
            List<Results.Run> serverRuns = new ArrayList<>();
            try (Target server = settings.running() ? running.get(p.server()) : start(p, settings, log, out)) {
                String version = server.frameworkVersion();
                if (version != null) {
                    versions.put(p.server(), version);
                }
                if (settings.running()) {
                    out.printf(Locale.ROOT, "%n%s at %s%n", p.server(), server.base());
                }
                for (int concurrency : concurrencies) {
                    Results.Run run = runOne(server, engine, concurrency, settings, problems);
                    serverRuns.add(run);
                    out.println("  " + ConsoleTable.oneLine(run));
                    out.flush();
                }
                OptionalInt stopped = server.stop(Duration.ofMillis(delayMs).plusSeconds(15));
                if (stopped.isPresent()) {
                    int exit = stopped.getAsInt();
                    if (exit != 0) {
                        problems.add(p.server() + " (" + serverRuns.getFirst().strategy() + ") exited with code " + exit
                                + " after SIGTERM (log: " + log + ")");
                    }
                    out.printf(Locale.ROOT, "  stopped with SIGTERM: exit code %d%n", exit);
                    serverRuns.replaceAll(r -> r.withServerExitCode(exit));
                }
            }
            runs.addAll(serverRuns);
        }
        for (Results.Run run : runs) {
            if ("mismatch".equals(run.reconciliation().verdict())) {
                problems.add(run.label() + ": the server counted " + run.reconciliation().serverCounted()
                        + " requests, the client got " + run.reconciliation().clientAnswered() + " answers");
            }
        }
        Results results = new Results(environment(versions, settings.running() ? null : settings.jvmOptions()),
                resultsSettings(settings, engine.name()), runs);
        Path json = out().resolve("results.json");
        Path html = out().resolve("report.html");
        ResultsJson.write(results, json);
        HtmlReport.write(results, html);
        out.println();
        out.print(ConsoleTable.render(results));
        out.println();
        out.println("results: " + json);
        out.println("report:  " + html);
        out.flush();
        for (String problem : problems) {
            err.println("loadtest: " + problem);
        }
        return problems.isEmpty() ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    private ServerProcess start(Planned p, Settings settings, Path log, PrintStream out) {
        out.printf(Locale.ROOT, "%n%s (%s): starting %s%n", p.server(), p.strategy() == null ? "its default strategy" : p.strategy(),
                String.join(" ", ServerProcess.command(jar(p.server()), settings.jvmOptions(), 0, p.strategy(), delayEvery, delayMs))
                        .replace("--port 0", "--port <free>"));
        out.flush();
        return ServerProcess.start(p.server(), jar(p.server()), settings.jvmOptions(), p.strategy(), delayEvery, delayMs, log);
    }

    /** Each target up (before any run, so that one that is down costs no runs) and delaying as --delay-every says. */
    private Map<String, RunningServer> connect(Map<String, URI> targets, PrintStream out) {
        Map<String, RunningServer> running = new LinkedHashMap<>();
        targets.forEach((name, base) -> {
            out.printf(Locale.ROOT, "%s at %s: waiting for /health%n", name, base);
            out.flush();
            RunningServer server = RunningServer.connect(name, base, RunningServer.READY_TIMEOUT);
            Target.Stats stats = server.stats();
            if (!stats.delaysEvery(delayEvery)) {
                throw new UsageException(delayEveryMismatch(server, stats));
            }
            out.printf(Locale.ROOT, "%s at %s: up, strategy %s, %,d requests counted so far%n", name, base, stats.strategy(),
                    stats.requests());
            running.put(name, server);
        });
        out.flush();
        return running;
    }

    private String delayEveryMismatch(Target server, Target.Stats stats) {
        long expected = delayEvery == 0 ? 0 : stats.requests() / delayEvery;
        return String.format(Locale.ROOT, "--delay-every %d does not match %s at %s: its /stats counts %d delayed of %d requests,"
                + " not %d; give the servers' own setting (the bound depends on it)", delayEvery, server.name(), server.base(),
                stats.delayed(), stats.requests(), expected);
    }

    private Results.Run runOne(Target server, Engine engine, int concurrency, Settings settings, List<String> problems) {
        Duration idleLimit = Duration.ofMillis(delayMs).plusSeconds(timeoutSeconds + 5L);
        Target.Stats before = server.idleStats(idleLimit);
        Optional<ServerSampler> sampler = server.pid().stream().mapToObj(ServerSampler::new).findFirst();
        LoadRunner.Phases phases = new LoadRunner.Phases() {
            @Override
            public void measureStarted() {
                sampler.ifPresent(ServerSampler::start);
            }

            @Override
            public void measureEnded() {
                sampler.ifPresent(ServerSampler::stop);
            }
        };
        Engine.Timing timing = new Engine.Timing(rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(),
                iterations, timeoutSeconds, eventLoops == null ? 0 : eventLoops);
        Outcome outcome = engine.run(server.base().resolve("/"), concurrency, timing, phases);
        Target.Stats after = server.idleStats(idleLimit);

        Double bound = bound(concurrency, delayEvery, delayMs);
        double generatorShareCores = Math.max(1.0, Runtime.getRuntime().availableProcessors() / 2.0);
        double clientCores = outcome.durationSeconds() > 0 ? outcome.clientCpuSeconds() / outcome.durationSeconds() : 0;
        boolean generatorBound = clientCores >= GENERATOR_BOUND_SHARE * generatorShareCores;
        List<String> notes = new ArrayList<>(outcome.notes());
        if (generatorBound) {
            notes.add(String.format(Locale.ROOT, "generator-bound: the load generator used %.2f cores of its %.1f-core share"
                    + " of this machine; the figure may be the generator's limit, not the server's", clientCores, generatorShareCores));
        }
        if (sampler.isEmpty()) {
            notes.add("server CPU and peak RSS n/a: compare did not start this server (--targets " + server.name() + "="
                    + server.base() + "), so it has no process of it to read them from");
        } else if (!sampler.get().peakWasReset()) {
            notes.add("peak RSS is the process's peak since start (VmHWM could not be reset)");
        }
        if (!after.delaysEvery(delayEvery)) {
            String mismatch = delayEveryMismatch(server, after);
            notes.add(mismatch);
            problems.add(mismatch);
        }
        if (after.inFlight() > 0) {
            notes.add(after.inFlight() + " request(s) still in flight at the server when its count was read");
        }
        Results.Reconciliation reconciliation = Results.Reconciliation.of(after.requests() - before.requests(),
                outcome.answered(), outcome.unansweredAllowance());
        return new Results.Run(server.name(), after.strategy(), concurrency, engine.name(), outcome.requests(),
                outcome.failed(), round(outcome.durationSeconds(), 3), round(outcome.requestsPerSecond(), 1), bound,
                bound == null ? null : round(outcome.requestsPerSecond() / bound, 4), outcome.latency(),
                sampler.map(ServerSampler::cpuSeconds).orElse(null), sampler.map(ServerSampler::peakRssMb).orElse(null),
                round(outcome.clientCpuSeconds(), 2), generatorBound,
                reconciliation, outcome.connectionsOpened(), null, outcome.percentiles(), notes);
    }

    /** C closed-loop clients, one request in {@code delayEvery} held {@code delayMs}: at most C x N / delay requests/s. */
    static Double bound(int concurrency, int delayEvery, long delayMs) {
        if (delayEvery <= 0 || delayMs <= 0) {
            return null;
        }
        return concurrency * (double) delayEvery / (delayMs / 1000.0);
    }

    private List<Planned> plan(Settings settings) {
        if (settings.running()) {
            return settings.targets().keySet().stream().map(server -> new Planned(server, null)).toList();
        }
        List<Planned> planned = new ArrayList<>();
        for (String server : servers) {
            for (String strategy : strategyList()) {
                planned.add(new Planned(server, strategy));
            }
        }
        return planned;
    }

    /** null stands for the server's own default. */
    private List<String> strategyList() {
        return switch (strategies.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> Arrays.asList((String) null);
            case "all" -> Arrays.stream(Strategy.values()).map(Strategy::id).toList();
            default -> Arrays.stream(strategies.split(",")).map(String::trim).toList();
        };
    }

    private Path jar(String server) {
        Path given = "undertow".equals(server) ? undertowJar : vertxJar;
        return given != null ? given : ProjectLayout.defaultJar(server);
    }

    private Path out() {
        return out.toAbsolutePath().normalize();
    }

    /** The options after checking, with --quick's timings applied; {@code targets} empty unless --targets. */
    record Settings(int warmupSeconds, Integer durationSeconds, List<String> jvmOptions, Map<String, URI> targets) {

        /** The servers are already running: compare neither starts nor stops them. */
        boolean running() {
            return !targets.isEmpty();
        }
    }

    private Results.Settings resultsSettings(Settings settings, String engine) {
        return new Results.Settings(engine, rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(), iterations,
                timeoutSeconds, delayEvery, delayMs, eventLoops != null ? eventLoops : Runtime.getRuntime().availableProcessors());
    }

    private Settings validate() {
        Map<String, URI> running = targets == null ? Map.of() : parseTargets(targets);
        if (!running.isEmpty()) {
            refuseWithTargets("--servers", "--targets names the servers");
            refuseWithTargets("--jvm-opts", "the running servers' JVMs are already started");
            refuseWithTargets("--undertow-jar", "compare starts no server");
            refuseWithTargets("--vertx-jar", "compare starts no server");
            if (!strategies.trim().equalsIgnoreCase("default")) {
                throw new UsageException("--strategies: not with --targets: the running servers keep their own strategies (see their /stats)");
            }
        }
        if (servers.isEmpty()) {
            throw new UsageException("--servers: name at least one of " + String.join(", ", SERVERS));
        }
        for (String server : servers) {
            if (!SERVERS.contains(server)) {
                throw new UsageException("--servers: unknown server '" + server + "' (expected " + String.join(", ", SERVERS) + ")");
            }
        }
        if (servers.stream().distinct().count() != servers.size()) {
            throw new UsageException("--servers: a server is named twice: " + String.join(",", servers));
        }
        for (String strategy : strategyList()) {
            if (strategy != null) {
                try {
                    Strategy.of(strategy);
                } catch (RuntimeException e) {
                    throw new UsageException("--strategies: unknown strategy '" + strategy + "' (expected default, all, or some of " + Strategy.ids() + ")");
                }
            }
        }
        for (int c : concurrencies) {
            if (c < 1) {
                throw new UsageException("--concurrency: must be at least 1, got " + c);
            }
        }
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
        int warmup = warmupSeconds != null ? warmupSeconds : quick ? QUICK_WARMUP : WARMUP;
        Integer duration = iterations != null ? null : durationSeconds != null ? durationSeconds : quick ? QUICK_DURATION : DURATION;
        if (warmup < 0) {
            throw new UsageException("--warmup: must be >= 0 seconds, got " + warmup);
        }
        if (duration != null && duration < 1) {
            throw new UsageException("--duration: must be at least 1 second, got " + duration);
        }
        if (rampupSeconds < 0) {
            throw new UsageException("--rampup: must be >= 0 seconds, got " + rampupSeconds);
        }
        if (timeoutSeconds < 1) {
            throw new UsageException("--timeout: must be at least 1 second, got " + timeoutSeconds);
        }
        if (delayEvery < 0 || delayMs < 0) {
            throw new UsageException("--delay-every and --delay-ms: must be >= 0");
        }
        if (eventLoops != null && eventLoops < 1) {
            throw new UsageException("--event-loops: must be at least 1, got " + eventLoops);
        }
        for (String server : running.isEmpty() ? servers : List.<String>of()) {
            Path jar = jar(server);
            if (!Files.isRegularFile(jar)) {
                throw new UsageException("no " + server + " server jar at " + jar + ": build it (./mvnw -B -q package -DskipTests)"
                        + " or pass --" + server + "-jar");
            }
        }
        List<String> jvm = Arrays.stream(jvmOptions.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        return new Settings(warmup, duration, jvm, running);
    }

    private void refuseWithTargets(String option, String why) {
        if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
            throw new UsageException(option + ": not with --targets: " + why);
        }
    }

    /** {@code undertow=http://undertow:8080,vertx=http://vertx:8081}, in the order given. */
    static Map<String, URI> parseTargets(String list) {
        Map<String, URI> targets = new LinkedHashMap<>();
        for (String entry : list.split(",", -1)) {
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new UsageException("--targets: expected NAME=URL[,NAME=URL...], got '" + entry.trim() + "'");
            }
            String name = entry.substring(0, equals).trim();
            if (!SERVERS.contains(name)) {
                throw new UsageException("--targets: unknown server '" + name + "' (expected " + String.join(", ", SERVERS) + ")");
            }
            if (targets.containsKey(name)) {
                throw new UsageException("--targets: " + name + " is given twice");
            }
            targets.put(name, baseUrl(name, entry.substring(equals + 1).trim()));
        }
        return targets;
    }

    /** http://HOST[:PORT][/] as http://HOST:PORT. */
    private static URI baseUrl(String name, String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--targets: " + name + ": not a URL: " + url);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || !(path.isEmpty() || path.equals("/"))
                || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new UsageException("--targets: " + name + ": must be an http:// base URL (host and port, no path), got " + url);
        }
        return URI.create("http://" + uri.getHost() + ":" + (uri.getPort() < 0 ? 80 : uri.getPort()));
    }

    private void printHeader(PrintStream out, Settings settings, List<Planned> planned) {
        int runsCount = planned.size() * concurrencies.size();
        String concurrencyList = concurrencies.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("");
        if (settings.running()) {
            out.printf(Locale.ROOT, "compare: servers already running: %s; concurrency %s; engine %s%n",
                    String.join(", ", settings.targets().entrySet().stream().map(t -> t.getKey() + " at " + t.getValue()).toList()),
                    concurrencyList, engineName);
            out.println("their own options and strategies apply; they are not stopped; their CPU and RSS are not measured");
        } else {
            out.printf(Locale.ROOT, "compare: servers %s; strategies: %s; concurrency %s; engine %s%n", String.join(", ", servers),
                    strategies, concurrencyList, engineName);
            out.printf(Locale.ROOT, "server JVM options (both): %s%n", String.join(" ", settings.jvmOptions()));
        }
        out.printf(Locale.ROOT, "workload: every %dth request held %d ms%s; bound = C x %d / %.1f s%n",
                delayEvery, delayMs, settings.running() ? " (--delay-every/--delay-ms: must be the servers' own)" : "",
                delayEvery, delayMs / 1000.0);
        if (settings.durationSeconds() != null) {
            long perRun = rampupSeconds + settings.warmupSeconds() + settings.durationSeconds() + delayMs / 1000 + 1;
            long startAndStop = settings.running() ? 0 : planned.size() * (6 + delayMs / 1000);
            long total = runsCount * perRun + startAndStop;
            out.printf(Locale.ROOT, "each run: %d s ramp-up + %d s warm-up + %d s measured; %d runs, about %d min %02d s in all%n",
                    rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(), runsCount, total / 60, total % 60);
        } else {
            out.printf(Locale.ROOT, "each run: %d s ramp-up + %d s warm-up + %d measured requests; %d runs%n",
                    rampupSeconds, settings.warmupSeconds(), iterations, runsCount);
        }
        out.println("output: " + out());
        out.flush();
    }

    /** @param serverJvmOptions null when the servers were already running, with options compare cannot see */
    static Results.Environment environment(Map<String, String> versions, List<String> serverJvmOptions) {
        BuildInfo build = BuildInfo.get();
        return new Results.Environment(
                System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                cpuModel(), Runtime.getRuntime().availableProcessors(),
                versions.getOrDefault("undertow", build.undertowVersion()),
                versions.getOrDefault("vertx", build.vertxVersion()),
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                serverJvmOptions == null ? null : String.join(" ", serverJvmOptions));
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | UncheckedIOException e) {
            return "unknown";
        }
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
