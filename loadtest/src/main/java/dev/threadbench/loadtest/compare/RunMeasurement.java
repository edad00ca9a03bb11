package dev.threadbench.loadtest.compare;

import dev.threadbench.common.ThreadClasses;
import dev.threadbench.common.ThreadSnapshot;
import dev.threadbench.loadtest.engine.Engine;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.host.ListenDrops;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.ThreadClassCost;
import dev.threadbench.loadtest.profile.Profiling;
import dev.threadbench.loadtest.runner.LoadRunner;
import dev.threadbench.loadtest.server.Target;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of a compare, measured: the engine's load on one server, the server's count while idle before and after it,
 * its cost over the measured window as its own /stats reports it (the same way for servers compare started and those
 * it reached with --targets), and, for a server compare started, its profile and this machine's accept-queue drops.
 */
final class RunMeasurement {

    /** A run, and how its auto warm-up read the server's JIT (null: no auto warm-up). */
    record Measured(Run run, WarmUp warmUp) {}

    private final CompareSettings settings;
    private final Engine engine;
    private final Profiling profiling;
    private final List<String> problems;
    private final LiveFeed live;

    /**
     * @param problems where a run's problems go (a count the client cannot explain, say)
     * @param live     the live page's feed: the server's reads and the warm-up's JIT readings
     */
    RunMeasurement(CompareSettings settings, Engine engine, Profiling profiling, List<String> problems, LiveFeed live) {
        this.settings = settings;
        this.engine = engine;
        this.profiling = profiling;
        this.problems = problems;
        this.live = live;
    }

    /** @param warmupSeconds this run's warm-up in place of the settings' (a server started for it alone); or null */
    Measured measure(Target server, CompareSettings.Load load, int round, Integer warmupSeconds) {
        Engine.Timing timing = timing(warmupSeconds);
        CompareSettings.Workload workload = settings.workload();
        Duration idleLimit = Duration.ofMillis(workload.delayMs()).plusSeconds(timing.timeoutSeconds() + 5L);
        Target.Stats before = server.idleStats(idleLimit);
        String name = Profiling.name(
                server.name(),
                before.strategy(),
                load.concurrency(),
                load.rate(),
                round,
                settings.runs().rounds());
        Profiling.Window profile = server.pid().isEmpty()
                ? Profiling.Window.NONE
                : profiling.window(
                        server.pid().getAsLong(), server.name(), before.strategy(), load.concurrency(), round, name);
        WindowEdges edges = new WindowEdges(profile, settings.generator().embeddedHere());
        Loaded loaded = load(server, load, timing, edges);
        Outcome outcome = loaded.outcome();
        if (outcome.seconds() != null) {
            HdrLog.write(
                    settings.out().resolve("hlog").resolve(name + ".hlog"),
                    outcome.seconds(),
                    timing.rampupSeconds(),
                    name + ": " + server.base() + ", " + engine.name());
        }
        profile.finish();
        Target.Stats after = server.idleStats(idleLimit);
        Run run = RunAnalysis.analyse(
                new RunAnalysis.Readings(
                        server,
                        load.concurrency(),
                        engine.name(),
                        round,
                        outcome,
                        before,
                        after,
                        loaded.cost(),
                        edges.generatorThreads(outcome.window().requests()),
                        loaded.listenDrops()),
                workload.delayEvery(),
                workload.delayMs(),
                timing.rampupSeconds(),
                settings.pinning(),
                problems);
        return new Measured(run, settings.generator().timing().autoWarmup() ? loaded.warmUp() : null);
    }

    /** The settings' timing, with this run's own warm-up when it has one. */
    private Engine.Timing timing(Integer warmupSeconds) {
        Engine.Timing given = settings.generator().timing();
        return warmupSeconds == null
                ? given
                : new Engine.Timing(
                        given.rampupSeconds(),
                        warmupSeconds,
                        given.durationSeconds(),
                        given.iterations(),
                        given.timeoutSeconds(),
                        given.eventLoops());
    }

    /** What the load gave: the engine's outcome (notes, timeline), the server's cost, its warm-up, listen drops. */
    private record Loaded(Outcome outcome, ServerCost cost, WarmUp warmUp, Long listenDrops) {}

    private Loaded load(Target server, CompareSettings.Load load, Engine.Timing timing, WindowEdges edges) {
        try (CostSampler costs = new CostSampler(server, live::server)) {
            // only an auto warm-up reads the server's compiler threads (a directory walk of every thread to start)
            WarmUp warmUp = timing.autoWarmup() ? WarmUp.of(server, costs) : WarmUp.notAsked();
            LoadRunner.Phases phases = edges.phases(warmUp, costs);
            costs.begin();
            // a server compare started listens on this machine: its accept queue's drops are this machine's
            Long dropsBefore = server.startedByCompare() ? ListenDrops.read() : null;
            Outcome outcome = load.rate() == null
                    ? engine.run(server.base().resolve("/"), load.concurrency(), timing, phases)
                    : engine.runAtRate(server.base().resolve("/"), load.connections(), load.rate(), timing, phases);
            ServerCost cost = costs.cost(outcome.window().requestsPerSecond());
            Long dropsAfter = dropsBefore == null ? null : ListenDrops.read();
            Long dropped = dropsAfter == null ? null : dropsAfter - dropsBefore;
            String drops = dropped == null ? null : ListenDrops.note(dropped, ListenDrops.somaxconn());
            if (drops != null) {
                outcome = outcome.withNote(drops);
            }
            String capped = timing.autoWarmup() ? warmUp.capNote() : null;
            if (capped != null) {
                outcome = outcome.withNote(capped);
            }
            if (outcome.timeline() != null) {
                Results.Timeline generator = outcome.timeline();
                outcome = outcome.withTimeline(new Results.Timeline(
                        generator.measureStartSecond(),
                        generator.measureEndSecond(),
                        generator.generatorSeconds(),
                        costs.timeline(
                                generator.measureStartSecond(),
                                settings.pinning().serverShareCpus())));
            }
            return new Loaded(outcome, cost, warmUp, dropped);
        }
    }

    /**
     * What happens at the measured window's edges besides the load: the server's cost sampler and profile start and
     * stop, and the embedded generator (which runs in this JVM) reads its own threads, for its run-queue wait.
     */
    private final class WindowEdges {
        private final Profiling.Window profile;
        private final boolean generatorHere;
        private final List<ThreadSnapshot> generator = Collections.synchronizedList(new ArrayList<>(2));

        WindowEdges(Profiling.Window profile, boolean generatorHere) {
            this.profile = profile;
            this.generatorHere = generatorHere;
        }

        LoadRunner.Phases phases(WarmUp warmUp, CostSampler costs) {
            return new LoadRunner.Phases() {
                /** --warmup auto, at each whole delay period: the server's JIT settled. */
                @Override
                public boolean warmedUp() {
                    boolean settled = warmUp.settled();
                    live.jit(warmUp.lastShare());
                    return settled;
                }

                @Override
                public void measureStarted() {
                    costs.start();
                    profile.start();
                    readGenerator();
                }

                @Override
                public void measureEnded() {
                    costs.stop();
                    profile.stop();
                    readGenerator();
                }
            };
        }

        private void readGenerator() {
            if (generatorHere) {
                generator.add(ThreadSnapshot.read(Path.of("/proc/self")));
            }
        }

        /** The generator's bill by thread class over the window; null when it was not read at both edges. */
        Map<String, ThreadClassCost> generatorThreads(long requests) {
            synchronized (generator) {
                return generator.size() != 2 || generator.contains(null)
                        ? null
                        : WindowCost.over(
                                ThreadSnapshot.between(generator.get(0), generator.get(1), ThreadClasses.VERTX),
                                requests);
            }
        }
    }

    /** The line before a run whose server compare started for it alone: its longer warm-up, and why. */
    static void printFreshWarmup(int warmupSeconds, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  warming its JIT first: %d s at the run's own concurrency before the window, not measured (a grid"
                        + " point's server ran the concurrencies below it first)%n",
                warmupSeconds);
        out.flush();
    }
}
