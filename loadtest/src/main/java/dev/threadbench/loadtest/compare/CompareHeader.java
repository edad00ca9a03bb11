package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.analysis.Holm;
import dev.threadbench.loadtest.analysis.ReadableNumber;
import dev.threadbench.loadtest.analysis.Verdict;
import dev.threadbench.loadtest.engine.Engine;
import java.io.PrintStream;
import java.util.Locale;

/**
 * What compare prints before its first run: the servers, the workload, the CPUs, the rounds and how long it will take.
 */
final class CompareHeader {

    private CompareHeader() {}

    /**
     * With --sweep: what narrowing in may add, at most (every pair breaking in the grid's widest gap, then its two ends
     * measured again), each of its runs in a server started for it and warmed first
     * ({@link RunLength#FRESH_SERVER_WARMUP_SECONDS} in place of the grid's warm-up).
     */
    private static String narrowing(CompareSettings settings, long perRun, long gridSeconds) {
        CompareSettings.Runs runs = settings.runs();
        CompareSettings.Generator generator = settings.generator();
        int steps =
                Bisection.stepsLeftInGrid(runs.concurrencies(), settings.sweep().resolution());
        if (steps == 0) {
            return "";
        }
        // and both ends measured again once narrowed in, each the same way
        long more = (long) (steps + 2) * runs.rounds() * runs.planned().size();
        long startAndWarm = runs.running()
                ? 0
                : startAndStopSeconds(settings)
                        + RunLength.freshServerWarmupSeconds(generator.timing())
                        - generator.timing().warmupSeconds();
        long most = gridSeconds + more * (perRun + startAndWarm);
        return String.format(
                Locale.ROOT,
                "; then, narrowing each pair in to within %s %%, at most %d runs more (%d steps a pair,"
                        + " then both ends again), up to %d min %02d s in all",
                ReadableNumber.percent(settings.sweep().resolution()),
                more,
                steps,
                most / 60,
                most % 60);
    }

    /** A server's start (to /health) and its stop (SIGTERM, the delayed answers drained), about. */
    private static long startAndStopSeconds(CompareSettings settings) {
        return 6 + settings.workload().delayMs() / 1000;
    }

    static void print(CompareSettings settings, PrintStream out) {
        CompareSettings.Runs runs = settings.runs();
        CompareSettings.Generator generator = settings.generator();
        CompareSettings.Servers servers = settings.servers();
        Engine.Timing timing = generator.timing();
        int runsCount = runs.rounds() * runs.planned().size() * runs.loads().size();
        String concurrencyList = String.join(
                ", ", runs.concurrencies().stream().map(String::valueOf).toList());
        String engine = generator.agents() == null
                ? generator.engine().key()
                : "cluster (" + generator.agents().agents() + " agents, each run's connections split evenly)";
        if (runs.running()) {
            out.printf(
                    Locale.ROOT,
                    "compare: servers already running: %s; concurrency %s; engine %s%n",
                    String.join(
                            ", ",
                            runs.targets().entrySet().stream()
                                    .map(t -> t.getKey() + " at " + t.getValue())
                                    .toList()),
                    concurrencyList,
                    engine);
            out.println("their own options and strategies apply; they are not stopped; their cost is what their /stats"
                    + " reports");
        } else {
            out.printf(
                    Locale.ROOT,
                    "compare: servers %s; strategies: %s; concurrency %s; engine %s%n",
                    String.join(", ", servers.jars().keySet()),
                    runs.strategies(),
                    concurrencyList,
                    engine);
            out.printf(Locale.ROOT, "server JVM options (both): %s%n", String.join(" ", servers.jvmOptions()));
            if (!servers.serverArgs().isEmpty()) {
                out.printf(Locale.ROOT, "server options (both): %s%n", String.join(" ", servers.serverArgs()));
            }
        }
        if (runs.loads().stream().anyMatch(load -> load.rate() != null)) {
            out.printf(
                    Locale.ROOT,
                    "open model: %s; latency from each request's intended send time%n",
                    String.join(
                            ", ",
                            runs.loads().stream()
                                    .map(load -> String.format(
                                            Locale.ROOT,
                                            "%,.0f req/s on %d connections (C=%d)",
                                            load.rate(),
                                            load.connections(),
                                            load.concurrency()))
                                    .toList()));
        }
        if (generator.agents() == null) {
            out.println(settings.pinning().describe());
        } else if (!runs.running()) {
            out.println(
                    settings.pinning().describe().replaceFirst(", generator .*", "; the load comes from the agents"));
        }
        long delayMs = settings.workload().delayMs();
        out.printf(
                Locale.ROOT,
                "workload: every %dth request held %d ms%s; bound = C x %d / %.1f s%n",
                settings.workload().delayEvery(),
                delayMs,
                runs.running() ? " (--delay-every/--delay-ms: must be the servers' own)" : "",
                settings.workload().delayEvery(),
                delayMs / 1000.0);
        String rounds = runs.rounds() == 1
                ? ""
                : String.format(
                        Locale.ROOT, " in %d rounds (servers in turn, their order reversed each round)", runs.rounds());
        if (timing.durationSeconds() != null && timing.autoWarmup()) {
            // a server's first run in a round warms its JIT for up to the cap (the estimate takes the fixed warm-up's
            // 8 s; measured warm-ups: docs/cpu-bill.md), the runs after it in the same process for about one delay
            // period (2 taken)
            long delaySeconds = Math.max(1, delayMs / 1000);
            long base = timing.rampupSeconds() + timing.durationSeconds() + delayMs / 1000 + 1;
            long starts =
                    runs.running() ? 0 : (long) runs.rounds() * runs.planned().size();
            long firsts = (long) runs.rounds() * runs.planned().size();
            long typical = runsCount * base
                    + firsts * Math.min(timing.warmupSeconds(), RunLength.FIXED_WARMUP_SECONDS)
                    + (runsCount - firsts) * 2 * delaySeconds
                    + starts * startAndStopSeconds(settings);
            long most = runsCount * (base + timing.warmupSeconds()) + starts * startAndStopSeconds(settings);
            out.printf(
                    Locale.ROOT,
                    "each run: %d s ramp-up + warm-up until the server's JIT uses under %s of its CPU in %d periods"
                            + " of %d s in a row (%d-%d s, on a whole delay period) + %d s measured; %d runs%s, about"
                            + " %d min %02d s in all, at most %d min %02d s%n",
                    timing.rampupSeconds(),
                    WarmUp.percent(WarmUp.JIT_SHARE),
                    WarmUp.SETTLED_PERIODS,
                    RunLength.AUTO_WARMUP_JIT_SECONDS,
                    delaySeconds,
                    timing.warmupSeconds(),
                    timing.durationSeconds(),
                    runsCount,
                    rounds,
                    typical / 60,
                    typical % 60,
                    most / 60,
                    most % 60);
        } else if (timing.durationSeconds() != null) {
            long perRun =
                    timing.rampupSeconds() + timing.warmupSeconds() + timing.durationSeconds() + delayMs / 1000 + 1;
            long startAndStop =
                    runs.running() ? 0 : (long) runs.rounds() * runs.planned().size() * startAndStopSeconds(settings);
            long total = runsCount * perRun + startAndStop;
            out.printf(
                    Locale.ROOT,
                    "each run: %d s ramp-up + %d s warm-up + %d s measured; %d runs%s, about %d min %02d s in all%s%n",
                    timing.rampupSeconds(),
                    timing.warmupSeconds(),
                    timing.durationSeconds(),
                    runsCount,
                    rounds,
                    total / 60,
                    total % 60,
                    settings.sweep().on() ? narrowing(settings, perRun, total) : "");
        } else {
            out.printf(
                    Locale.ROOT,
                    "each run: %d s ramp-up + %d s warm-up + %d measured requests; %d runs%s%n",
                    timing.rampupSeconds(),
                    timing.warmupSeconds(),
                    timing.iterations(),
                    runsCount,
                    rounds);
        }
        if (generator.windowNote() != null) {
            out.println("note: " + generator.windowNote());
        }
        // the verdict's tests: its figures for each pair of servers at each concurrency (Verdict, Holm)
        int needed = Holm.roundsNeeded(
                Verdict.FIGURES * Math.max(1, runs.concurrencies().size()));
        if (runs.rounds() == 1) {
            out.println("one round: the verdict will not judge any difference (one round has no spread to judge it by;"
                    + " --repeat " + needed + " or more)");
        } else if (runs.rounds() < needed && !settings.sweep().on()) {
            out.printf(
                    Locale.ROOT,
                    "%d rounds: too few for the verdict to name a difference at 5 %% over its tests (--repeat %d or"
                            + " more)%n",
                    runs.rounds(),
                    needed);
        }
        out.println("output: " + settings.out());
        out.flush();
    }
}
