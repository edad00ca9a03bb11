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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * The main job: each server from its jar, one at a time, driven at each concurrency; results side by
 * side in the terminal, in DIR/results.json and in DIR/report.html.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start each server from its jar, drive it at each concurrency, and compare them side by side.")
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

    @Option(names = "--quick", description = "shorter runs: 10 s warm-up + 15 s measured (default 15 + 50): under 3 minutes in all")
    private boolean quick;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "where results.json, report.html and the server logs go (default ${DEFAULT-VALUE})")
    private Path out;

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
            description = "passed to both servers: delay every Nth request (default ${DEFAULT-VALUE})")
    private int delayEvery;

    @Option(names = "--delay-ms", paramLabel = "MS", defaultValue = "2000",
            description = "passed to both servers: how long a delayed request waits (default ${DEFAULT-VALUE})")
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
        try {
            Files.createDirectories(out().resolve("logs"));
        } catch (IOException e) {
            throw new UsageException("--out: cannot create " + out() + ": " + e.getMessage());
        }
        List<Planned> planned = plan();
        printHeader(out, settings, planned);

        Map<String, String> versions = new LinkedHashMap<>();
        List<Results.Run> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Planned p : planned) {
            Path log = out().resolve("logs").resolve(p.server() + "-" + (p.strategy() == null ? "default" : p.strategy()) + ".log");
            out.printf(Locale.ROOT, "%n%s (%s): starting %s%n", p.server(), p.strategy() == null ? "its default strategy" : p.strategy(),
                    String.join(" ", ServerProcess.command(jar(p.server()), settings.jvmOptions(), 0, p.strategy(), delayEvery, delayMs))
                            .replace("--port 0", "--port <free>"));
            out.flush();
            List<Results.Run> serverRuns = new ArrayList<>();
            try (ServerProcess server = ServerProcess.start(p.server(), jar(p.server()), settings.jvmOptions(), p.strategy(),
                    delayEvery, delayMs, log)) {
                String version = server.frameworkVersion();
                if (version != null) {
                    versions.put(p.server(), version);
                }
                for (int concurrency : concurrencies) {
                    Results.Run run = runOne(server, engine, concurrency, settings);
                    serverRuns.add(run);
                    out.println("  " + ConsoleTable.oneLine(run));
                    out.flush();
                }
                int exit = server.stop(Duration.ofMillis(delayMs).plusSeconds(15));
                if (exit != 0) {
                    problems.add(p.server() + " (" + serverRuns.getFirst().strategy() + ") exited with code " + exit
                            + " after SIGTERM (log: " + log + ")");
                }
                out.printf(Locale.ROOT, "  stopped with SIGTERM: exit code %d%n", exit);
                serverRuns.replaceAll(r -> r.withServerExitCode(exit));
            }
            runs.addAll(serverRuns);
        }
        for (Results.Run run : runs) {
            if ("mismatch".equals(run.reconciliation().verdict())) {
                problems.add(run.label() + ": the server counted " + run.reconciliation().serverCounted()
                        + " requests, the client got " + run.reconciliation().clientAnswered() + " answers");
            }
        }
        Results results = new Results(environment(versions, settings.jvmOptions()), resultsSettings(settings, engine.name()), runs);
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

    private Results.Run runOne(ServerProcess server, Engine engine, int concurrency, Settings settings) {
        Duration idleLimit = Duration.ofMillis(delayMs).plusSeconds(timeoutSeconds + 5L);
        ServerProcess.Stats before = server.idleStats(idleLimit);
        ServerSampler sampler = new ServerSampler(server.pid());
        LoadRunner.Phases phases = new LoadRunner.Phases() {
            @Override
            public void measureStarted() {
                sampler.start();
            }

            @Override
            public void measureEnded() {
                sampler.stop();
            }
        };
        Engine.Timing timing = new Engine.Timing(rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(),
                iterations, timeoutSeconds, eventLoops == null ? 0 : eventLoops);
        Outcome outcome = engine.run(server.base().resolve("/"), concurrency, timing, phases);
        ServerProcess.Stats after = server.idleStats(idleLimit);

        Double bound = bound(concurrency, delayEvery, delayMs);
        double generatorShareCores = Math.max(1.0, Runtime.getRuntime().availableProcessors() / 2.0);
        double clientCores = outcome.durationSeconds() > 0 ? outcome.clientCpuSeconds() / outcome.durationSeconds() : 0;
        boolean generatorBound = clientCores >= GENERATOR_BOUND_SHARE * generatorShareCores;
        List<String> notes = new ArrayList<>(outcome.notes());
        if (generatorBound) {
            notes.add(String.format(Locale.ROOT, "generator-bound: the load generator used %.2f cores of its %.1f-core share"
                    + " of this machine; the figure may be the generator's limit, not the server's", clientCores, generatorShareCores));
        }
        if (!sampler.peakWasReset()) {
            notes.add("peak RSS is the process's peak since start (VmHWM could not be reset)");
        }
        if (after.inFlight() > 0) {
            notes.add(after.inFlight() + " request(s) still in flight at the server when its count was read");
        }
        Results.Reconciliation reconciliation = Results.Reconciliation.of(after.requests() - before.requests(),
                outcome.answered(), outcome.unansweredAllowance());
        return new Results.Run(server.name(), after.strategy(), concurrency, engine.name(), outcome.requests(),
                outcome.failed(), round(outcome.durationSeconds(), 3), round(outcome.requestsPerSecond(), 1), bound,
                bound == null ? null : round(outcome.requestsPerSecond() / bound, 4), outcome.latency(),
                sampler.cpuSeconds(), sampler.peakRssMb(), round(outcome.clientCpuSeconds(), 2), generatorBound,
                reconciliation, outcome.connectionsOpened(), null, outcome.percentiles(), notes);
    }

    /** C closed-loop clients, one request in {@code delayEvery} held {@code delayMs}: at most C x N / delay requests/s. */
    static Double bound(int concurrency, int delayEvery, long delayMs) {
        if (delayEvery <= 0 || delayMs <= 0) {
            return null;
        }
        return concurrency * (double) delayEvery / (delayMs / 1000.0);
    }

    private List<Planned> plan() {
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

    /** The options after checking, with --quick's timings applied. */
    record Settings(int warmupSeconds, Integer durationSeconds, List<String> jvmOptions) {}

    private Results.Settings resultsSettings(Settings settings, String engine) {
        return new Results.Settings(engine, rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(), iterations,
                timeoutSeconds, delayEvery, delayMs, eventLoops != null ? eventLoops : Runtime.getRuntime().availableProcessors());
    }

    private Settings validate() {
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
        for (String server : servers) {
            Path jar = jar(server);
            if (!Files.isRegularFile(jar)) {
                throw new UsageException("no " + server + " server jar at " + jar + ": build it (./mvnw -B -q package -DskipTests)"
                        + " or pass --" + server + "-jar");
            }
        }
        List<String> jvm = Arrays.stream(jvmOptions.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        return new Settings(warmup, duration, jvm);
    }

    private void printHeader(PrintStream out, Settings settings, List<Planned> planned) {
        int runsCount = planned.size() * concurrencies.size();
        out.printf(Locale.ROOT, "compare: servers %s; strategies: %s; concurrency %s; engine %s%n", String.join(", ", servers),
                strategies, concurrencies.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse(""), engineName);
        out.printf(Locale.ROOT, "server JVM options (both): %s%n", String.join(" ", settings.jvmOptions()));
        out.printf(Locale.ROOT, "workload: every %dth request held %d ms; bound = C x %d / %.1f s%n",
                delayEvery, delayMs, delayEvery, delayMs / 1000.0);
        if (settings.durationSeconds() != null) {
            long perRun = rampupSeconds + settings.warmupSeconds() + settings.durationSeconds() + delayMs / 1000 + 1;
            long total = runsCount * perRun + planned.size() * (6 + delayMs / 1000);
            out.printf(Locale.ROOT, "each run: %d s ramp-up + %d s warm-up + %d s measured; %d runs, about %d min %02d s in all%n",
                    rampupSeconds, settings.warmupSeconds(), settings.durationSeconds(), runsCount, total / 60, total % 60);
        } else {
            out.printf(Locale.ROOT, "each run: %d s ramp-up + %d s warm-up + %d measured requests; %d runs%n",
                    rampupSeconds, settings.warmupSeconds(), iterations, runsCount);
        }
        out.println("output: " + out());
        out.flush();
    }

    static Results.Environment environment(Map<String, String> versions, List<String> serverJvmOptions) {
        BuildInfo build = BuildInfo.get();
        return new Results.Environment(
                System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                cpuModel(), Runtime.getRuntime().availableProcessors(),
                versions.getOrDefault("undertow", build.undertowVersion()),
                versions.getOrDefault("vertx", build.vertxVersion()),
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(), String.join(" ", serverJvmOptions));
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
