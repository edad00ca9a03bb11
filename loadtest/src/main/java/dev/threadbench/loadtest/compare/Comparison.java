package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.analysis.Baselines;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.base.ExitCodes;
import dev.threadbench.loadtest.base.RunFailure;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.host.ListenDrops;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.profile.ProfileMode;
import dev.threadbench.loadtest.profile.Profiling;
import dev.threadbench.loadtest.report.BaselineOptions;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.History;
import dev.threadbench.loadtest.report.HtmlReport;
import dev.threadbench.loadtest.report.ProfileLines;
import dev.threadbench.loadtest.report.ResultsJson;
import dev.threadbench.loadtest.server.RunningServer;
import dev.threadbench.loadtest.server.ServerArgs;
import dev.threadbench.loadtest.server.Target;
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
import java.util.OptionalInt;

/**
 * A compare, run: each planned server started from its jar (or reached, with --targets) in turn, driven at
 * each concurrency (and, with --rate, each rate), stopped; then results.json, report.html and the table.
 * Exit code 1 when a server did not stop cleanly, counted other than the client, or failed once runs had
 * been made (they are kept; that server's remaining runs in the round are skipped). Each run is measured by
 * {@link RunMeasurement}; a sweep's narrowing in after its grid is {@link SweepNarrowing}'s.
 */
final class Comparison {

    private final CompareSettings settings;
    private final Engine engine;
    /** --profile: null, off. */
    private final ProfileMode profileMode;
    /** --profile on the servers compare starts; off without it, and with --targets. */
    private final Profiling profiling;
    /** --baseline, --fail-if: the runs judged against a saved run, and the limits checked; null: neither. */
    private final BaselineOptions baseline;

    private final PrintStream out;
    private final PrintStream err;
    /** The worker pool's maximum of the servers compare starts; null with --targets (not known). */
    private final Integer workers;

    private final RunMeasurement measurement;
    private final LiveFeed live;
    /** The concurrencies this machine cannot hold, known once the run starts. */
    private List<Results.Skipped> skipped = List.of();

    private final PointProgress progress = new PointProgress();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> versions = new LinkedHashMap<>();

    /**
     * @param profileMode --profile; null: off
     * @param baseline    --baseline, --fail-if ({@link BaselineOptions}); null: neither given
     */
    Comparison(
            CompareSettings settings,
            Engine engine,
            ProfileMode profileMode,
            BaselineOptions baseline,
            LiveFeed live,
            PrintStream out,
            PrintStream err) {
        this.settings = settings;
        this.engine = engine;
        this.profileMode = profileMode;
        this.profiling = profileMode == null || settings.runs().running()
                ? Profiling.off()
                : Profiling.of(profileMode, settings.out(), out);
        this.baseline = baseline;
        this.out = out;
        this.err = err;
        this.workers = settings.runs().running()
                ? null
                : ServerArgs.workers(settings.servers().serverArgs());
        this.live = live;
        this.measurement = new RunMeasurement(settings, engine, profiling, problems, live);
        engine.watch(live::generator);
    }

    int run() {
        if (baseline != null) {
            baseline.refuseAnotherMachine(environment());
        }
        CompareSettings.Runs planned = settings.runs();
        try {
            Files.createDirectories(
                    planned.running() ? settings.out() : settings.out().resolve("logs"));
        } catch (IOException e) {
            throw new UsageException("--out: cannot create " + settings.out() + ": " + e.getMessage());
        }
        CompareHeader.print(settings, out);
        if (live.headerLine() != null) {
            out.println(live.headerLine());
        }
        skipped = Headroom.skipped(settings, engine);
        skipped.forEach(s -> out.printf(Locale.ROOT, "skipped: C=%d: %s%n", s.concurrency(), s.reason()));
        String backlog = planned.running()
                ? null
                : ListenDrops.cutBacklog(
                        planned.concurrencies().stream()
                                .mapToInt(Integer::intValue)
                                .max()
                                .orElse(0),
                        ListenDrops.somaxconn());
        if (backlog != null) {
            out.println("note: " + backlog);
        }
        List<CompareSettings.Load> loads = planned.loads().stream()
                .filter(load -> skipped.stream().noneMatch(s -> s.concurrency() == load.concurrency()))
                .toList();
        if (loads.isEmpty()) {
            throw new UsageException(
                    "--concurrency: this machine can hold none of " + planned.concurrencies() + " (see above)");
        }
        planProfiles();
        progress.start(points(loads));
        List<Run> runs = new ArrayList<>();
        try (CpuPinning.Pinned pinned = settings.pinning().pinThisJvm()) {
            Map<String, RunningServer> running = ServerLaunch.connect(settings, out);
            Map<Planned, List<CompareSettings.Load>> grid = new LinkedHashMap<>();
            planned.planned().forEach(server -> grid.put(server, loads));
            SweepNarrowing.Rounds rounds = (plan, freshWarmup, logSuffix, phase) ->
                    rounds(plan, new Pass(freshWarmup, logSuffix, phase), running, runs);
            if (rounds.run(grid, null, "", settings.sweep().on() ? Run.Phase.GRID : null)
                    && settings.sweep().on()) {
                new SweepNarrowing(settings, progress, rounds, out).run(runs, skipped);
            }
        }
        runs.stream()
                .filter(run ->
                        run.reconciliation() != null && run.reconciliation().mismatched())
                .forEach(run -> problems.add(run.label() + planned.label(run.round()) + ": the server counted "
                        + run.reconciliation().serverCounted() + " requests, the client got "
                        + run.reconciliation().clientAnswered() + " answers"));
        return report(runs, skipped);
    }

    /**
     * How many runs the progress line counts: with --sweep at most, each pair breaking in the grid's widest gap, then
     * its two ends again (counted again once the grid is run).
     */
    private int points(List<CompareSettings.Load> loads) {
        CompareSettings.Runs planned = settings.runs();
        int points = planned.rounds() * planned.planned().size() * loads.size();
        if (!settings.sweep().on()) {
            return points;
        }
        int steps = Bisection.stepsLeftInGrid(
                loads.stream().map(CompareSettings.Load::concurrency).toList(),
                settings.sweep().resolution());
        return points + planned.rounds() * planned.planned().size() * (steps == 0 ? 0 : steps + 2);
    }

    /** results.json, report.html, the table and the history; the exit code. */
    private int report(List<Run> runs, List<Results.Skipped> skipped) {
        Results results = results(runs, skipped);
        if (baseline != null) {
            results = baseline.judge(results);
        }
        Path json = settings.out().resolve("results.json");
        Path html = settings.out().resolve("report.html");
        ResultsJson.write(results, json);
        HtmlReport.write(results, html);
        live.finished(results, html);
        out.println();
        out.print(ConsoleTable.render(results));
        out.println();
        ProfileLines.of(results.profiles()).forEach(out::println);
        Baselines.versions(results).forEach(versions -> {
            versions.lines().forEach(out::println);
            out.println();
        });
        out.println("results: " + json);
        out.println("report:  " + html);
        Path kept = History.keep(results, settings.out());
        if (kept != null) {
            out.println("history: " + kept);
        }
        out.flush();
        problems.forEach(problem -> err.println("loadtest: " + problem));
        int exit = problems.isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
        return baseline == null ? exit : baseline.report(results, settings.out(), exit, out, err);
    }

    private Results results(List<Run> runs, List<Results.Skipped> skipped) {
        return SweepPairs.withSweep(new Results(
                environment(),
                settings.results(engine.name()).withGeneratorTransport(engine.transport()),
                runs,
                skipped,
                null,
                profiling.profiles()));
    }

    /** Where the runs are made (the frameworks' versions as the servers logged them, once they have). */
    private Results.Environment environment() {
        boolean running = settings.runs().running();
        return EnvironmentProbe.describe(
                versions,
                running ? null : settings.servers().jvmOptions(),
                running ? null : settings.servers().serverArgs(),
                settings.pinning());
    }

    /**
     * --profile profiles every run. With --sweep that includes the narrowing in: which concurrency a pair still holds
     * is known only once every round of it has run, so the report picks each pair's profiles at 2000 and at its
     * largest concurrency held afterwards ({@code SweepProfiles}). With --targets: a note, since compare cannot load
     * anything into them.
     */
    private void planProfiles() {
        if (profileMode == null) {
            return;
        }
        if (settings.runs().running()) {
            out.println("profile: not with --targets: compare did not start these servers, so it cannot load the"
                    + " profiler into them; no profiles");
            return;
        }
        out.println("profile: " + profileMode.description() + "; every run"
                + (settings.sweep().on()
                        ? " (the sweep's report sets each pair's at 2000 and at its largest concurrency held side by"
                                + " side)"
                        : "")
                + ", measured windows only, into " + settings.out().resolve("profiles"));
    }

    /**
     * Every round of the planned servers' runs (those in {@code plan}, each with its loads), servers in turn in each
     * round as {@link CompareSettings.Runs#order} says; false when the engine said no run can go on (the runs made are
     * kept).
     */
    private boolean rounds(
            Map<Planned, List<CompareSettings.Load>> plan,
            Pass pass,
            Map<String, RunningServer> running,
            List<Run> runs) {
        CompareSettings.Runs planned = settings.runs();
        for (int round = 0; round < planned.rounds(); round++) {
            for (Planned server : planned.order(round)) {
                if (!plan.containsKey(server)) {
                    continue;
                }
                try {
                    runsOf(server, round, running.get(server.server()), plan.get(server), pass, runs);
                } catch (Engine.CannotGoOn e) {
                    if (runs.isEmpty()) {
                        throw e;
                    }
                    problems.add("stopped" + planned.label(round) + ": " + e.getMessage()
                            + "; the runs already made are kept");
                    out.println("  stopped: " + e.getMessage());
                    out.flush();
                    return false;
                } catch (RunFailure e) {
                    if (runs.isEmpty()) {
                        throw e; // nothing to keep: stop at once
                    }
                    // the runs already made are kept: a long sweep is not lost to one server that fails
                    problems.add(server.server() + " (" + (server.strategy() == null ? "default" : server.strategy())
                            + ")" + planned.label(round) + ": " + e.getMessage()
                            + "; its remaining runs in this round skipped");
                    out.println("  failed: " + e.getMessage());
                    out.flush();
                }
            }
        }
        return true;
    }

    /**
     * How a pass of rounds is made: a run whose server compare starts for it warmed for {@code
     * freshServerWarmupSeconds} (null: the settings' warm-up), its log named with {@code logSuffix}, its runs in
     * {@code phase} (null: no sweep).
     */
    private record Pass(Integer freshServerWarmupSeconds, String logSuffix, Run.Phase phase) {}

    /**
     * One server's runs in one round, one per load (concurrency, or concurrency and rate), between its start and
     * its stop (or, already running, between connect and close), each added to {@code done} as it ends.
     */
    private void runsOf(
            Planned planned,
            int round,
            RunningServer alreadyRunning,
            List<CompareSettings.Load> loads,
            Pass pass,
            List<Run> done) {
        CompareSettings.Runs runsPlanned = settings.runs();
        CompareSettings.Workload workload = settings.workload();
        Path log = settings.out()
                .resolve("logs")
                .resolve(planned.server() + "-"
                        + (planned.strategy() == null ? "default" : planned.strategy())
                        + (runsPlanned.rounds() == 1 ? "" : "-round" + (round + 1)) + pass.logSuffix() + ".log");
        List<Run> runs = new ArrayList<>();
        try (Target server = alreadyRunning != null
                ? alreadyRunning
                : ServerLaunch.start(settings, profiling.on(), planned, round, log, out)) {
            String version = server.frameworkVersion();
            if (version != null) {
                versions.put(planned.server(), version);
            }
            // a server already running has been warm since the grid; one started for this run alone warms longer
            Integer warmupSeconds = alreadyRunning != null ? null : pass.freshServerWarmupSeconds();
            if (alreadyRunning != null) {
                out.printf(Locale.ROOT, "%n%s at %s%s%n", planned.server(), server.base(), runsPlanned.label(round));
            } else if (warmupSeconds != null) {
                RunMeasurement.printFreshWarmup(warmupSeconds, out);
            }
            for (CompareSettings.Load load : loads) {
                RunMeasurement.Measured measured;
                Run run;
                try {
                    live.runStarted(planned, load, round, progress.current());
                    measured = measurement.measure(server, load, round, warmupSeconds);
                    run = inPhase(measured.run(), pass.phase());
                } catch (Engine.RunLost e) {
                    // that run is lost, the next may go on (the engine says when none can)
                    problems.add(planned.server() + " C=" + load.concurrency() + runsPlanned.label(round) + ": "
                            + e.getMessage());
                    out.println("  " + progress.next() + "C=" + load.concurrency() + ": failed: " + e.getMessage());
                    out.flush();
                    continue;
                }
                runs.add(run);
                done.add(run);
                RunLines.print(run, measured.warmUp(), progress.next(), settings, out);
                live.runsSoFar(results(done, skipped));
            }
            OptionalInt stopped =
                    server.stop(Duration.ofMillis(workload.delayMs()).plusSeconds(15));
            if (stopped.isPresent()) {
                String strategy =
                        runs.isEmpty() ? planned.strategy() : runs.getFirst().strategy();
                stopped(planned.server() + " (" + strategy + ")" + runsPlanned.label(round), stopped.getAsInt(), log);
                for (int i = done.size() - runs.size(); i < done.size(); i++) {
                    done.set(i, done.get(i).withServerExitCode(stopped.getAsInt()));
                }
            }
        }
    }

    /** With --sweep, the run in its phase, with its worker pool's share for the blocking strategy. */
    private Run inPhase(Run run, Run.Phase phase) {
        if (phase == null) {
            return run;
        }
        CompareSettings.Workload workload = settings.workload();
        return run.inPhase(
                phase,
                RunAnalysis.workerPoolShare(
                        run.strategy(),
                        run.load().requestsPerSecond(),
                        workload.delayEvery(),
                        workload.delayMs(),
                        workers));
    }

    /** A server's exit after SIGTERM: a problem unless 0. */
    private void stopped(String which, int exit, Path log) {
        if (exit != 0) {
            problems.add(which + " exited with code " + exit + " after SIGTERM (log: " + log + ")");
        }
        out.printf(Locale.ROOT, "  stopped with SIGTERM: exit code %d%n", exit);
    }
}
