package dev.threadbench.loadtest.compare;

import dev.threadbench.common.ThreadClasses;
import dev.threadbench.loadtest.RunFailure;
import dev.threadbench.loadtest.UsageException;
import dev.threadbench.loadtest.cli.ExitCodes;
import dev.threadbench.loadtest.compare.CompareSettings.Planned;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.profile.ProfileMode;
import dev.threadbench.loadtest.profile.Profiling;
import dev.threadbench.loadtest.report.AboveBound;
import dev.threadbench.loadtest.report.BaselineJudgement;
import dev.threadbench.loadtest.report.BaselineOptions;
import dev.threadbench.loadtest.report.Cell;
import dev.threadbench.loadtest.report.ConsoleTable;
import dev.threadbench.loadtest.report.History;
import dev.threadbench.loadtest.report.HtmlReport;
import dev.threadbench.loadtest.report.ReadableNumber;
import dev.threadbench.loadtest.report.Results;
import dev.threadbench.loadtest.report.ResultsJson;
import dev.threadbench.loadtest.report.SweepPair;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.runner.SourceAddresses;
import dev.threadbench.process.ServerProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A compare, run: each planned server started from its jar (or reached, with --targets) in turn, driven at
 * each concurrency (and, with --rate, each rate), stopped; then results.json, report.html and the table.
 * Exit code 1 when a server did not stop cleanly, counted other than the client, or failed once runs had
 * been made (they are kept; that server's remaining runs in the round are skipped).
 */
final class Comparison {

    private final CompareSettings settings;
    private final Engine engine;
    private final PrintStream out;
    private final PrintStream err;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> versions = new LinkedHashMap<>();
    /** The worker pool's maximum of the servers compare starts; null with --targets (not known). */
    private final Integer workers;
    /** "About" the points in all: a sweep's narrowing in is counted at most until it is known. */
    private int points;
    private int pointsDone;
    private long startNanos;
    private ProfileMode profileMode;
    /** The server's JIT ms/s over the last 2 s when the last run's auto warm-up ended (null: not read). */
    private Double lastWarmUpJit;
    private Profiling profiling = Profiling.off();
    private BaselineOptions baseline;

    Comparison(CompareSettings settings, Engine engine, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.engine = engine;
        this.workers = settings.runs().running() ? null : ServerArgs.workers(settings.servers().serverArgs());
        this.out = out;
        this.err = err;
    }

    /** --profile: null, off. */
    Comparison profiled(ProfileMode mode) {
        this.profileMode = mode;
        return this;
    }

    /** --baseline, --fail-if: the runs judged against a saved run, and the limits checked ({@link BaselineOptions}). */
    Comparison judged(BaselineOptions baseline) {
        this.baseline = baseline;
        return this;
    }

    int run() {
        if (baseline != null) {
            baseline.refuseAnotherMachine(environment());
        }
        try {
            Files.createDirectories(settings.runs().running() ? settings.out() : settings.out().resolve("logs"));
        } catch (IOException e) {
            throw new UsageException("--out: cannot create " + settings.out() + ": " + e.getMessage());
        }
        CompareHeader.print(settings, out);
        // with agents and running servers, neither the connections nor the servers are on this machine
        List<Results.Skipped> skipped = Headroom.and(settings.generator().agents() != null && settings.runs().running() ? List.of()
                : Headroom.skipped(settings.runs().concurrencies(), !settings.runs().running(), settings.servers().jvmOptions(), Headroom.Machine.probe()),
                settings.generator().agents() != null ? List.of() : Headroom.portsSkipped(settings.runs().concurrencies(), settings.runs().running()
                        ? settings.runs().targets().values().stream().map(URI::getHost).distinct().toList()
                        : List.of(settings.servers().host() != null ? settings.servers().host() : "127.0.0.1"), engine.name(),
                        engine::sourceAddresses, SourceAddresses.EPHEMERAL_PORTS));
        skipped.forEach(s -> out.printf(Locale.ROOT, "skipped: C=%d: %s%n", s.concurrency(), s.reason()));
        String backlog = settings.runs().running() ? null : ListenDrops.cutBacklog(
                settings.runs().concurrencies().stream().mapToInt(Integer::intValue).max().orElse(0), ListenDrops.somaxconn());
        if (backlog != null) {
            out.println("note: " + backlog);
        }
        List<CompareSettings.Load> loads = settings.runs().loads().stream()
                .filter(load -> skipped.stream().noneMatch(s -> s.concurrency() == load.concurrency())).toList();
        if (loads.isEmpty()) {
            throw new UsageException("--concurrency: this machine can hold none of " + settings.runs().concurrencies() + " (see above)");
        }
        points = settings.runs().rounds() * settings.runs().planned().size() * loads.size();
        if (settings.sweep().on()) {
            // at most: each pair breaking in the grid's widest gap, then its two ends again; counted again once the grid is run
            int steps = Bisection.stepsLeftInGrid(loads.stream().map(CompareSettings.Load::concurrency).toList(), settings.sweep().resolution());
            points += settings.runs().rounds() * settings.runs().planned().size() * (steps == 0 ? 0 : steps + 2);
        }
        planProfiles();
        startNanos = System.nanoTime();
        List<Results.Run> runs = new ArrayList<>();
        try (CpuPinning.Pinned pinned = settings.pinning().pinThisJvm()) {
            Map<String, RunningServer> running = connect();
            Map<Planned, List<CompareSettings.Load>> grid = new LinkedHashMap<>();
            settings.runs().planned().forEach(planned -> grid.put(planned, loads));
            if (rounds(grid, Map.of(), running, runs, "", settings.sweep().on() ? Results.Run.GRID : null) && settings.sweep().on()
                    && narrowIn(running, runs, skipped)) {
                measureEndsAgain(running, runs, skipped);
            }
        }
        for (Results.Run run : runs) {
            if ("mismatch".equals(run.reconciliation().verdict())) {
                problems.add(run.label() + roundLabel(run.round()) + ": the server counted " + run.reconciliation().serverCounted()
                        + " requests, the client got " + run.reconciliation().clientAnswered() + " answers");
            }
        }
        Results results = new Results(environment(),
                settings.results(engine.name()).withGeneratorTransport(engine.transport()), runs, skipped, null, profiling.profiles())
                .withSweep();
        if (baseline != null) {
            results = baseline.judge(results);
        }
        Path json = settings.out().resolve("results.json");
        Path html = settings.out().resolve("report.html");
        ResultsJson.write(results, json);
        HtmlReport.write(results, html);
        out.println();
        out.print(ConsoleTable.render(results));
        out.println();
        ProfileLines.of(results.profiles()).forEach(out::println);
        BaselineJudgement.versions(results).forEach(versions -> {
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

    /** Where the runs are made (the frameworks' versions as the servers logged them, once they have). */
    private Results.Environment environment() {
        return EnvironmentProbe.describe(versions, settings.runs().running() ? null : settings.servers().jvmOptions(),
                settings.runs().running() ? null : settings.servers().serverArgs(), settings.pinning());
    }

    /**
     * --profile profiles every run. With --sweep that includes the narrowing in: which concurrency a pair still holds is
     * known only once every round of it has run, so the report picks each pair's profiles at 2000 and at its largest
     * concurrency held afterwards ({@code SweepProfiles}). With --targets: a note, since compare cannot load anything into them.
     */
    private void planProfiles() {
        if (profileMode == null) {
            return;
        }
        if (settings.runs().running()) {
            out.println("profile: not with --targets: compare did not start these servers, so it cannot load the profiler into them;"
                    + " no profiles");
            return;
        }
        profiling = Profiling.of(profileMode, settings.out(), out);
        out.println("profile: " + profileMode.description() + "; every run" + (settings.sweep().on()
                ? " (the sweep's report sets each pair's at 2000 and at its largest concurrency held side by side)" : "")
                + ", measured windows only, into " + settings.out().resolve("profiles"));
    }

    /**
     * Every round of the planned servers' runs (those in {@code plan}, each with its loads), servers in turn in each round
     * as {@link CompareSettings#order} says, each server compare starts first warmed, unmeasured, at the concurrency
     * {@code warmUps} gives it, if any; false when the engine said no run can go on (the runs made are kept).
     */
    private boolean rounds(Map<Planned, List<CompareSettings.Load>> plan, Map<Planned, Integer> warmUps,
                           Map<String, RunningServer> running, List<Results.Run> runs, String logSuffix, String phase) {
        for (int round = 0; round < settings.runs().rounds(); round++) {
            for (Planned planned : settings.runs().order(round)) {
                if (!plan.containsKey(planned)) {
                    continue;
                }
                try {
                    runsOf(planned, round, running.get(planned.server()), plan.get(planned), warmUps.get(planned), logSuffix, phase,
                            runs);
                } catch (Engine.CannotGoOn e) {
                    if (runs.isEmpty()) {
                        throw e;
                    }
                    problems.add("stopped" + roundLabel(round) + ": " + e.getMessage() + "; the runs already made are kept");
                    out.println("  stopped: " + e.getMessage());
                    out.flush();
                    return false;
                } catch (RunFailure e) {
                    if (runs.isEmpty()) {
                        throw e; // nothing to keep: stop at once
                    }
                    // the runs already made are kept: a long sweep is not lost to one server that fails
                    problems.add(planned.server() + " (" + (planned.strategy() == null ? "default" : planned.strategy()) + ")"
                            + roundLabel(round) + ": " + e.getMessage() + "; its remaining runs in this round skipped");
                    out.println("  failed: " + e.getMessage());
                    out.flush();
                }
            }
        }
        return true;
    }

    /**
     * After the sweep's grid: step by step, every pair not yet narrow enough at its own midpoint, in every round with the
     * servers in turn as in the grid ({@link Bisection}), until none is left; false when the engine said no run can go on.
     */
    private boolean narrowIn(Map<String, RunningServer> running, List<Results.Run> runs, List<Results.Skipped> skipped) {
        Set<Bisection.Step> tried = new HashSet<>();
        for (int step = 1; ; step++) {
            List<SweepPair> pairs = SweepPair.of(runs, skipped);
            List<Bisection.Step> next = Bisection.next(pairs, settings.sweep().resolution(), tried);
            if (next.isEmpty()) {
                return true;
            }
            tried.addAll(next);
            List<SweepPair> narrowing = pairs.stream().filter(p -> next.stream()
                    .anyMatch(n -> n.server().equals(p.server()) && Objects.equals(n.strategy(), p.strategy()))).toList();
            points = pointsDone + settings.runs().rounds() * (Bisection.stepsLeft(narrowing, settings.sweep().resolution())
                    + Bisection.ends(pairs).size());
            out.printf(Locale.ROOT, "%nnarrowing in, step %d (until the first not held is within %s %% of the last held): %s%n",
                    step, ReadableNumber.percent(settings.sweep().resolution()), String.join("; ", next.stream().map(Bisection.Step::describe).toList()));
            out.flush();
            Map<Planned, List<CompareSettings.Load>> plan = new LinkedHashMap<>();
            Map<Planned, Integer> warmUps = new LinkedHashMap<>();
            if (!stepRounds(next, running, runs, "-step" + step, Results.Run.NARROWING)) {
                return false;
            }
        }
    }

    /** "warm-up 6 s: the server's JIT compiled 4 ms a second over the last 2 s", or that the cap ended it. */
    static String warmUpLine(double seconds, Double jit) {
        String compiled = jit == null ? "its JIT not read" : String.format(Locale.ROOT, "the server's JIT compiled %.0f ms a second"
                + " over the last %d s", jit, RunLength.AUTO_WARMUP_JIT_SECONDS);
        return jit != null && jit >= RunLength.AUTO_WARMUP_JIT_MS_PER_SECOND
                ? String.format(Locale.ROOT, "warm-up %.0f s, the cap: %s (still %d or more)", seconds, compiled,
                        RunLength.AUTO_WARMUP_JIT_MS_PER_SECOND)
                : String.format(Locale.ROOT, "warm-up %.0f s: %s (under %d)", seconds, compiled, RunLength.AUTO_WARMUP_JIT_MS_PER_SECOND);
    }

    /**
     * Once narrowed in: each pair's last held and then its first not held measured again, each on a server started for it
     * and warmed as the narrowing's midpoints are, in every round, so that both ends of its interval are read with one
     * procedure (a grid point's server had climbed through every concurrency below it). Kept beside the first readings.
     */
    private void measureEndsAgain(Map<String, RunningServer> running, List<Results.Run> runs, List<Results.Skipped> skipped) {
        List<Bisection.Step> ends = Bisection.ends(SweepPair.of(runs, skipped));
        if (ends.isEmpty()) {
            return;
        }
        points = pointsDone + settings.runs().rounds() * ends.size();
        List<Bisection.Step> held = ends.subList(0, ends.size() / 2);
        List<Bisection.Step> notHeld = ends.subList(ends.size() / 2, ends.size());
        out.printf(Locale.ROOT, "%nmeasuring the ends again as the narrowing measures, held ends: %s%n",
                String.join("; ", held.stream().map(Bisection.Step::describe).toList()));
        out.flush();
        if (!stepRounds(held, running, runs, "-held-end", Results.Run.ENDS)) {
            return;
        }
        out.printf(Locale.ROOT, "%nmeasuring the ends again as the narrowing measures, not-held ends: %s%n",
                String.join("; ", notHeld.stream().map(Bisection.Step::describe).toList()));
        out.flush();
        stepRounds(notHeld, running, runs, "-not-held-end", Results.Run.ENDS);
    }

    /** One run per step (at most one per planned server), every round, each server started for it warmed first. */
    private boolean stepRounds(List<Bisection.Step> steps, Map<String, RunningServer> running, List<Results.Run> runs,
                               String logSuffix, String phase) {
        Map<Planned, List<CompareSettings.Load>> plan = new LinkedHashMap<>();
        Map<Planned, Integer> warmUps = new LinkedHashMap<>();
        for (Bisection.Step n : steps) {
            Planned planned = n.plannedIn(settings.runs().planned()).orElseThrow(() -> new IllegalStateException("no planned server for " + n));
            plan.put(planned, List.of(CompareSettings.Load.closed(n.concurrency())));
            warmUps.put(planned, Math.min(n.heldAt(), RunLength.NARROWING_WARMUP_MAX_CONCURRENCY));
        }
        return rounds(plan, warmUps, running, runs, logSuffix, phase);
    }

    /** "[12/108, 5 min 10 s so far, about 41 min left] ": where the compare is, as each point ends. */
    private String progress() {
        pointsDone++;
        long elapsed = (System.nanoTime() - startNanos) / 1_000_000_000L;
        long left = pointsDone == points ? 0 : elapsed * (points - pointsDone) / pointsDone;
        return String.format(Locale.ROOT, "[%d/%d, %s so far%s] ", pointsDone, points, minutes(elapsed),
                left == 0 ? "" : ", about " + minutes(left) + " left");
    }

    private static String minutes(long seconds) {
        return seconds < 60 ? seconds + " s" : String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }

    /** " (round 2)" when there are several rounds. */
    private String roundLabel(int round) {
        return settings.runs().rounds() == 1 ? "" : " (round " + (round + 1) + ")";
    }

    /**
     * One server's runs in one round, one per load (concurrency, or concurrency and rate), between its start and
     * its stop (or, already running, between connect and close), each added to {@code done} as it ends.
     */
    private void runsOf(Planned planned, int round, RunningServer alreadyRunning, List<CompareSettings.Load> loads,
                        Integer warmUpConcurrency, String logSuffix, String phase, List<Results.Run> done) {
        Path log = settings.out().resolve("logs").resolve(planned.server() + "-"
                + (planned.strategy() == null ? "default" : planned.strategy())
                + (settings.runs().rounds() == 1 ? "" : "-round" + (round + 1)) + logSuffix + ".log");
        List<Results.Run> runs = new ArrayList<>();
        try (Target server = alreadyRunning != null ? alreadyRunning : start(planned, round, log)) {
            String version = server.frameworkVersion();
            if (version != null) {
                versions.put(planned.server(), version);
            }
            if (alreadyRunning != null) {
                out.printf(Locale.ROOT, "%n%s at %s%s%n", planned.server(), server.base(), roundLabel(round));
            } else if (warmUpConcurrency != null) {
                warmUp(server, warmUpConcurrency);
            }
            for (CompareSettings.Load load : loads) {
                Results.Run run;
                try {
                    run = measure(server, load, round);
                    run = phase == null ? run : run.inPhase(phase, RunAnalysis.workerPoolShare(run.strategy(),
                            run.requestsPerSecond(), settings.workload().delayEvery(), settings.workload().delayMs(), workers));
                } catch (Engine.RunLost e) {
                    // that run is lost, the next may go on (the engine says when none can)
                    problems.add(planned.server() + " C=" + load.concurrency() + roundLabel(round) + ": " + e.getMessage());
                    out.println("  " + progress() + "C=" + load.concurrency() + ": failed: " + e.getMessage());
                    out.flush();
                    continue;
                }
                runs.add(run);
                done.add(run);
                out.println("  " + progress() + ConsoleTable.oneLine(run));
                if (settings.generator().timing().autoWarmup() && run.warmupSeconds() != null) {
                    out.println("      " + warmUpLine(run.warmupSeconds(), lastWarmUpJit));
                }
                if (AboveBound.of(run)) {
                    out.println("      " + AboveBound.note(run.ratioToBound(), run.durationSeconds(),
                            settings.generator().timing().rampupSeconds(), settings.workload().delayMs()));
                }
                run.notes().stream().filter(note -> note.startsWith(ListenDrops.NOTE_PREFIX) || Cell.starvedNote(note))
                        .forEach(note -> out.println("      " + note));
                ConsoleTable.agentLines(run).forEach(line -> out.println("      " + line));
                out.flush();
            }
            OptionalInt stopped = server.stop(Duration.ofMillis(settings.workload().delayMs()).plusSeconds(15));
            if (stopped.isPresent()) {
                int exit = stopped.getAsInt();
                if (exit != 0) {
                    problems.add(planned.server() + " (" + (runs.isEmpty() ? planned.strategy() : runs.getFirst().strategy()) + ")"
                            + roundLabel(round) + " exited with code "
                            + exit + " after SIGTERM (log: " + log + ")");
                }
                out.printf(Locale.ROOT, "  stopped with SIGTERM: exit code %d%n", exit);
                for (int i = done.size() - runs.size(); i < done.size(); i++) {
                    done.set(i, done.get(i).withServerExitCode(exit));
                }
            }
        }
    }

    /**
     * A narrowing-in server is started for its one run, so its JIT is cold, where a grid point's server had run every
     * concurrency below it first: without this its run measured the compiler (JIT ms/s of 500-1,500 on 2 cores, the grid's
     * 1-90) and broke well below the grid's own points. This load, unmeasured, gives it about the grid's requests first.
     */
    private void warmUp(Target server, int concurrency) {
        out.printf(Locale.ROOT, "  warming its JIT first: %,d connections for %d s, not measured (a grid point's server ran the"
                + " concurrencies below it first)%n", concurrency, RunLength.NARROWING_WARMUP_SECONDS);
        out.flush();
        Engine.Timing timing = settings.generator().timing();
        try {
            engine.run(server.base().resolve("/"), concurrency, new Engine.Timing(timing.rampupSeconds(), 0,
                    RunLength.NARROWING_WARMUP_SECONDS, null, timing.timeoutSeconds(), timing.eventLoops()), new LoadRunner.Phases() {});
        } catch (Engine.RunLost e) {
            out.println("  warm-up failed: " + e.getMessage() + "; the run goes on");
        }
    }

    private StartedServer start(Planned planned, int round, Path log) {
        List<String> jvmOptions = new ArrayList<>(settings.pinning().serverJvmOptions());
        jvmOptions.addAll(settings.servers().jvmOptions());
        if (profiling.on()) {
            jvmOptions.add("-XX:+EnableDynamicAgentLoading"); // --profile loads async-profiler through the attach API: no warning
        }
        ServerProcess.Launch launch = ServerProcess.Launch.logged(planned.server(), settings.servers().jars().get(planned.server()),
                jvmOptions, log).through(settings.pinning().serverLauncher());
        List<String> options = new ArrayList<>(List.of("--delay-every", String.valueOf(settings.workload().delayEvery()),
                "--delay-ms", String.valueOf(settings.workload().delayMs())));
        if (planned.strategy() != null) {
            options.addAll(List.of("--strategy", planned.strategy()));
        }
        options.addAll(settings.servers().serverArgs());
        out.printf(Locale.ROOT, "%n%s (%s)%s: starting %s%n", planned.server(),
                planned.strategy() == null ? "its default strategy" : planned.strategy(), roundLabel(round),
                String.join(" ", launch.command(ServerProcess.on(settings.servers().host() == null ? "127.0.0.1" : settings.servers().host(),
                        "<free>", options))));
        out.flush();
        return StartedServer.start(launch, options, settings.servers().host());
    }

    /** Each target up (before any run, so that one that is down costs no runs) and delaying as --delay-every says. */
    private Map<String, RunningServer> connect() {
        Map<String, RunningServer> running = new LinkedHashMap<>();
        settings.runs().targets().forEach((name, base) -> {
            out.printf(Locale.ROOT, "%s at %s: waiting for /health%n", name, base);
            out.flush();
            RunningServer server = RunningServer.connect(name, base, RunningServer.READY_TIMEOUT);
            Target.Stats stats = server.stats();
            if (!stats.delaysEvery(settings.workload().delayEvery())) {
                throw new UsageException(RunAnalysis.delayEveryMismatch(server, stats, settings.workload().delayEvery()));
            }
            out.printf(Locale.ROOT, "%s at %s: up, strategy %s, %,d requests counted so far%n", name, base, stats.strategy(),
                    stats.requests());
            running.put(name, server);
        });
        out.flush();
        return running;
    }

    /**
     * One run: the server's count while idle before and after it, and its cost over the measured window as its
     * own /stats reports it (the same way for servers compare started and those it reached with --targets).
     */
    private Results.Run measure(Target server, CompareSettings.Load load, int round) {
        Duration idleLimit = Duration.ofMillis(settings.workload().delayMs()).plusSeconds(settings.generator().timing().timeoutSeconds() + 5L);
        Target.Stats before = server.idleStats(idleLimit);
        Profiling.Window profile = server instanceof StartedServer started
                ? profiling.window(started.pid(), server.name(), before.strategy(), load.concurrency(), round, Profiling.name(server.name(),
                        before.strategy(), load.concurrency(), load.rate(), round, settings.runs().rounds()))
                : Profiling.Window.NONE;
        Outcome outcome;
        Results.ServerCost cost;
        List<Results.ServerSample> serverTimeline = null;
        // the embedded generator runs in this JVM: its own bill by thread class at the window's edges, for its run-queue wait
        ThreadClasses generatorClasses = settings.generator().agents() == null && "embedded".equals(engine.name())
                ? ThreadClasses.ofThisProcess(ThreadClasses.VERTX) : null;
        List<Map<String, ThreadClasses.Cost>> generatorEdges = Collections.synchronizedList(new ArrayList<>(2));
        Double[] jitAtWarmedUp = new Double[1];
        try (CostSampler costs = new CostSampler(server)) {
            LoadRunner.Phases phases = new LoadRunner.Phases() {
                /** --warmup auto, at each whole delay period: the server's JIT over the last 2 s under the threshold. */
                @Override
                public boolean warmedUp() {
                    Double jit = costs.recentJitMsPerSecond(RunLength.AUTO_WARMUP_JIT_SECONDS);
                    jitAtWarmedUp[0] = jit;
                    return jit == null || jit < RunLength.AUTO_WARMUP_JIT_MS_PER_SECOND;
                }

                @Override
                public void measureStarted() {
                    costs.start();
                    profile.start();
                    if (generatorClasses != null) {
                        generatorEdges.add(generatorClasses.read());
                    }
                }

                @Override
                public void measureEnded() {
                    costs.stop();
                    profile.stop();
                    if (generatorClasses != null) {
                        generatorEdges.add(generatorClasses.read());
                    }
                }
            };
            costs.begin();
            Long dropsBefore = server instanceof StartedServer ? ListenDrops.read() : null;
            outcome = load.rate() == null
                    ? engine.run(server.base().resolve("/"), load.concurrency(), settings.generator().timing(), phases)
                    : engine.runAtRate(server.base().resolve("/"), load.connections(), load.rate(), settings.generator().timing(), phases);
            cost = costs.cost(outcome.requestsPerSecond());
            Long dropsAfter = dropsBefore == null ? null : ListenDrops.read();
            String drops = dropsAfter == null ? null : ListenDrops.note(dropsAfter - dropsBefore, ListenDrops.somaxconn());
            if (drops != null) {
                outcome = outcome.withNote(drops);
            }
            if (outcome.timeline() != null) {
                serverTimeline = costs.timeline(outcome.timeline().measureStartSecond(), settings.pinning().serverShareCpus());
            }
        }
        if (outcome.timeline() != null) {
            Results.Timeline generator = outcome.timeline();
            outcome = outcome.withTimeline(new Results.Timeline(generator.measureStartSecond(), generator.measureEndSecond(),
                    generator.generatorSeconds(), serverTimeline));
        }
        profile.finish();
        Target.Stats after = server.idleStats(idleLimit);
        Map<String, Results.ThreadClassCost> generatorThreads;
        synchronized (generatorEdges) {
            generatorThreads = generatorEdges.size() != 2 ? null : CostSampler.threads(
                    ProcessFigures.ClassFigures.of(generatorEdges.get(0)), ProcessFigures.ClassFigures.of(generatorEdges.get(1)),
                    outcome.requests());
        }
        lastWarmUpJit = jitAtWarmedUp[0];
        return RunAnalysis.analyse(new RunAnalysis.Measured(server, load.concurrency(), engine.name(), round, outcome, before, after,
                cost, generatorThreads), settings.workload().delayEvery(), settings.workload().delayMs(), settings.generator().timing().rampupSeconds(),
                settings.pinning(), problems);
    }
}
