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
        servers(settings, out);
        openModel(settings.runs(), out);
        if (settings.generator().agents() == null) {
            out.println(settings.pinning().describe());
        } else if (!settings.runs().running()) {
            out.println(
                    settings.pinning().describe().replaceFirst(", generator .*", "; the load comes from the agents"));
        }
        long delayMs = settings.workload().delayMs();
        out.printf(
                Locale.ROOT,
                "workload: every %dth request held %d ms%s; bound = C x %d / %.1f s%n",
                settings.workload().delayEvery(),
                delayMs,
                settings.runs().running() ? " (--delay-every/--delay-ms: must be the servers' own)" : "",
                settings.workload().delayEvery(),
                delayMs / 1000.0);
        out.println(runs(settings));
        if (settings.generator().windowNote() != null) {
            out.println("note: " + settings.generator().windowNote());
        }
        String verdict = verdictWarning(settings);
        if (verdict != null) {
            out.println(verdict);
        }
        out.println("output: " + settings.out());
        out.flush();
    }

    /** Which servers, strategies, concurrencies and engine; their options, or that they are already running. */
    private static void servers(CompareSettings settings, PrintStream out) {
        CompareSettings.Runs runs = settings.runs();
        CompareSettings.Servers servers = settings.servers();
        String concurrencyList = String.join(
                ", ", runs.concurrencies().stream().map(String::valueOf).toList());
        CompareSettings.Generator generator = settings.generator();
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
            return;
        }
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

    private static void openModel(CompareSettings.Runs runs, PrintStream out) {
        if (runs.loads().stream().allMatch(load -> load.rate() == null)) {
            return;
        }
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

    /** The line on each run's phases, how many runs, and how long they take in all. */
    static String runs(CompareSettings settings) {
        CompareSettings.Runs runs = settings.runs();
        Engine.Timing timing = settings.generator().timing();
        int runsCount = runs.rounds() * runs.planned().size() * runs.loads().size();
        String rounds = runs.rounds() == 1
                ? ""
                : String.format(
                        Locale.ROOT, " in %d rounds (servers in turn, their order reversed each round)", runs.rounds());
        if (timing.durationSeconds() == null) {
            return String.format(
                    Locale.ROOT,
                    "each run: %d s ramp-up + %d s warm-up + %d measured requests; %d runs%s",
                    timing.rampupSeconds(),
                    timing.warmupSeconds(),
                    timing.iterations(),
                    runsCount,
                    rounds);
        }
        Estimate estimate = Estimate.of(settings);
        if (timing.autoWarmup()) {
            return String.format(
                    Locale.ROOT,
                    "each run: %d s ramp-up + warm-up until the server's JIT uses under %s of its CPU in %d periods"
                            + " of %d s in a row (%d-%d s, on a whole delay period) + %d s measured; %d runs%s, about"
                            + " %s in all, at most %s",
                    timing.rampupSeconds(),
                    WarmUp.percent(WarmUp.JIT_SHARE),
                    WarmUp.SETTLED_PERIODS,
                    RunLength.AUTO_WARMUP_JIT_SECONDS,
                    Math.max(1, settings.workload().delayMs() / 1000),
                    timing.warmupSeconds(),
                    timing.durationSeconds(),
                    runsCount,
                    rounds,
                    minutes(estimate.typicalSeconds()),
                    minutes(estimate.mostSeconds()));
        }
        return String.format(
                Locale.ROOT,
                "each run: %d s ramp-up + %d s warm-up + %d s measured; %d runs%s, about %s in all%s",
                timing.rampupSeconds(),
                timing.warmupSeconds(),
                timing.durationSeconds(),
                runsCount,
                rounds,
                minutes(estimate.typicalSeconds()),
                settings.sweep().on() ? narrowing(settings, estimate.perRunSeconds(), estimate.typicalSeconds()) : "");
    }

    /** "6 min 48 s". */
    private static String minutes(long seconds) {
        return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }

    /**
     * How long the runs take, about ({@code typicalSeconds}) and at most ({@code mostSeconds}, every auto warm-up at
     * its cap); {@code perRunSeconds}: one run with the fixed warm-up. Without --warmup auto, typical and most are one.
     */
    record Estimate(long typicalSeconds, long mostSeconds, long perRunSeconds) {

        static Estimate of(CompareSettings settings) {
            CompareSettings.Runs runs = settings.runs();
            Engine.Timing timing = settings.generator().timing();
            long delaySeconds = settings.workload().delayMs() / 1000;
            long runsCount =
                    (long) runs.rounds() * runs.planned().size() * runs.loads().size();
            long starts =
                    runs.running() ? 0 : (long) runs.rounds() * runs.planned().size();
            long startsSeconds = starts * startAndStopSeconds(settings);
            // each run: its phases, the last delayed answers drained, about a second for /stats
            long base = timing.rampupSeconds() + timing.durationSeconds() + delaySeconds + 1;
            long perRun = base + timing.warmupSeconds();
            if (!timing.autoWarmup()) {
                long total = runsCount * perRun + startsSeconds;
                return new Estimate(total, total, perRun);
            }
            // a server's first run in a round warms its JIT for up to the cap (the estimate takes the fixed warm-up's
            // 8 s; measured warm-ups: docs/cpu-bill.md), the runs after it in the same process for about one delay
            // period (2 taken)
            long firsts = (long) runs.rounds() * runs.planned().size();
            long typical = runsCount * base
                    + firsts * Math.min(timing.warmupSeconds(), RunLength.FIXED_WARMUP_SECONDS)
                    + (runsCount - firsts) * 2 * Math.max(1, delaySeconds)
                    + startsSeconds;
            return new Estimate(typical, runsCount * perRun + startsSeconds, perRun);
        }
    }

    /** Why the verdict will name no difference with these rounds; null when it can. */
    private static String verdictWarning(CompareSettings settings) {
        CompareSettings.Runs runs = settings.runs();
        // the verdict's tests: its figures for each pair of servers at each concurrency (Verdict, Holm)
        int needed = Holm.roundsNeeded(
                Verdict.FIGURES * Math.max(1, runs.concurrencies().size()));
        if (runs.rounds() == 1) {
            return "one round: the verdict will not judge any difference (one round has no spread to judge it by;"
                    + " --repeat " + needed + " or more)";
        }
        if (runs.rounds() < needed && !settings.sweep().on()) {
            return String.format(
                    Locale.ROOT,
                    "%d rounds: too few for the verdict to name a difference at 5 %% over its tests (--repeat %d or"
                            + " more)",
                    runs.rounds(),
                    needed);
        }
        return null;
    }
}
