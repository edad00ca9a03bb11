package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.Main;
import dev.threadbench.loadtest.UsageException;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.HtmlReport;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.report.ResultsJson;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A compare, run: each planned server started from its jar (or reached, with --targets) in turn, driven
 * at each concurrency (and, with --rate, each rate), stopped; then results.json, report.html and the table. Exit code 1 when a server
 * did not stop cleanly or counted other than the client.
 */
final class Comparison {

    private final CompareSettings settings;
    private final Engine engine;
    private final PrintStream out;
    private final PrintStream err;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> versions = new LinkedHashMap<>();

    Comparison(CompareSettings settings, Engine engine, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.engine = engine;
        this.out = out;
        this.err = err;
    }

    int run() {
        try {
            Files.createDirectories(settings.running() ? settings.out() : settings.out().resolve("logs"));
        } catch (IOException e) {
            throw new UsageException("--out: cannot create " + settings.out() + ": " + e.getMessage());
        }
        CompareHeader.print(settings, out);
        List<Results.Run> runs = new ArrayList<>();
        try (CpuPinning.Pinned pinned = settings.pinning().pinThisJvm()) {
            Map<String, RunningServer> running = connect();
            for (int round = 0; round < settings.rounds(); round++) {
                for (Planned planned : settings.order(round)) {
                    runs.addAll(runsOf(planned, round, running.get(planned.server())));
                }
            }
        }
        for (Results.Run run : runs) {
            if ("mismatch".equals(run.reconciliation().verdict())) {
                problems.add(run.label() + roundLabel(run.round()) + ": the server counted " + run.reconciliation().serverCounted()
                        + " requests, the client got " + run.reconciliation().clientAnswered() + " answers");
            }
        }
        Results results = new Results(EnvironmentProbe.describe(versions, settings.running() ? null : settings.jvmOptions(),
                settings.running() ? null : settings.serverArgs(), settings.pinning()), settings.results(engine.name()), runs);
        Path json = settings.out().resolve("results.json");
        Path html = settings.out().resolve("report.html");
        ResultsJson.write(results, json);
        HtmlReport.write(results, html);
        out.println();
        out.print(ConsoleTable.render(results));
        out.println();
        out.println("results: " + json);
        out.println("report:  " + html);
        out.flush();
        problems.forEach(problem -> err.println("loadtest: " + problem));
        return problems.isEmpty() ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    /** " (round 2)" when there are several rounds. */
    private String roundLabel(int round) {
        return settings.rounds() == 1 ? "" : " (round " + (round + 1) + ")";
    }

    /**
     * One server's runs in one round, one per load (concurrency, or concurrency and rate), between its start and its stop (or, already
     * running, between connect and close).
     */
    private List<Results.Run> runsOf(Planned planned, int round, RunningServer alreadyRunning) {
        Path log = settings.out().resolve("logs").resolve(planned.server() + "-"
                + (planned.strategy() == null ? "default" : planned.strategy())
                + (settings.rounds() == 1 ? "" : "-round" + (round + 1)) + ".log");
        List<Results.Run> runs = new ArrayList<>();
        try (Target server = alreadyRunning != null ? alreadyRunning : start(planned, round, log)) {
            String version = server.frameworkVersion();
            if (version != null) {
                versions.put(planned.server(), version);
            }
            if (alreadyRunning != null) {
                out.printf(Locale.ROOT, "%n%s at %s%s%n", planned.server(), server.base(), roundLabel(round));
            }
            for (CompareSettings.Load load : settings.loads()) {
                Results.Run run = measure(server, load, round);
                runs.add(run);
                out.println("  " + ConsoleTable.oneLine(run));
                out.flush();
            }
            OptionalInt stopped = server.stop(Duration.ofMillis(settings.delayMs()).plusSeconds(15));
            if (stopped.isPresent()) {
                int exit = stopped.getAsInt();
                if (exit != 0) {
                    problems.add(planned.server() + " (" + runs.getFirst().strategy() + ")" + roundLabel(round) + " exited with code "
                            + exit + " after SIGTERM (log: " + log + ")");
                }
                out.printf(Locale.ROOT, "  stopped with SIGTERM: exit code %d%n", exit);
                runs.replaceAll(r -> r.withServerExitCode(exit));
            }
        }
        return runs;
    }

    private StartedServer start(Planned planned, int round, Path log) {
        List<String> jvmOptions = new ArrayList<>(settings.pinning().serverJvmOptions());
        jvmOptions.addAll(settings.jvmOptions());
        ServerProcess.Launch launch = ServerProcess.Launch.logged(planned.server(), settings.jars().get(planned.server()),
                jvmOptions, log).through(settings.pinning().serverLauncher());
        List<String> options = new ArrayList<>(List.of("--delay-every", String.valueOf(settings.delayEvery()),
                "--delay-ms", String.valueOf(settings.delayMs())));
        if (planned.strategy() != null) {
            options.addAll(List.of("--strategy", planned.strategy()));
        }
        options.addAll(settings.serverArgs());
        out.printf(Locale.ROOT, "%n%s (%s)%s: starting %s%n", planned.server(),
                planned.strategy() == null ? "its default strategy" : planned.strategy(), roundLabel(round),
                String.join(" ", launch.command(ServerProcess.onLoopback("<free>", options))));
        out.flush();
        return StartedServer.start(launch, options);
    }

    /** Each target up (before any run, so that one that is down costs no runs) and delaying as --delay-every says. */
    private Map<String, RunningServer> connect() {
        Map<String, RunningServer> running = new LinkedHashMap<>();
        settings.targets().forEach((name, base) -> {
            out.printf(Locale.ROOT, "%s at %s: waiting for /health%n", name, base);
            out.flush();
            RunningServer server = RunningServer.connect(name, base, RunningServer.READY_TIMEOUT);
            Target.Stats stats = server.stats();
            if (!stats.delaysEvery(settings.delayEvery())) {
                throw new UsageException(RunAnalysis.delayEveryMismatch(server, stats, settings.delayEvery()));
            }
            out.printf(Locale.ROOT, "%s at %s: up, strategy %s, %,d requests counted so far%n", name, base, stats.strategy(),
                    stats.requests());
            running.put(name, server);
        });
        out.flush();
        return running;
    }

    /** One run: the server's count while idle before and after it, its CPU and RSS over the measured window. */
    private Results.Run measure(Target server, CompareSettings.Load load, int round) {
        Duration idleLimit = Duration.ofMillis(settings.delayMs()).plusSeconds(settings.timing().timeoutSeconds() + 5L);
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
        Outcome outcome = load.rate() == null
                ? engine.run(server.base().resolve("/"), load.concurrency(), settings.timing(), phases)
                : engine.runAtRate(server.base().resolve("/"), load.connections(), load.rate(), settings.timing(), phases);
        Target.Stats after = server.idleStats(idleLimit);
        return RunAnalysis.analyse(new RunAnalysis.Measured(server, load.concurrency(), engine.name(), round, outcome, before, after,
                sampler), settings.delayEvery(), settings.delayMs(), settings.pinning(), problems);
    }
}
