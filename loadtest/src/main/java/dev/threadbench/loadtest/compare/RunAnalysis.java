package dev.threadbench.loadtest.compare;

import dev.threadbench.common.Strategy;
import dev.threadbench.loadtest.analysis.AboveBound;
import dev.threadbench.loadtest.engine.Outcome;
import dev.threadbench.loadtest.host.CpuPinning;
import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.ThreadClassCost;
import dev.threadbench.loadtest.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run's figures, judged: the bound the workload allows, whether the load generator or the server used
 * its CPUs to the full, the server's count of requests against the answers the client got, and the notes
 * that go with them.
 */
final class RunAnalysis {

    /** A side using this share of its CPUs or more is flagged: its CPUs, not the workload, may have set the pace. */
    static final double BOUND_SHARE = 0.9;

    /**
     * What one run measured: the engine's outcome, the server's /stats while idle before and after it,
     * and its cost over the measured window as it reported it (null when it reports none); {@code listenDrops}: this
     * machine's accept-queue drops over the run, null when not read (a server compare did not start).
     */
    record Readings(
            Target server,
            int concurrency,
            String engine,
            int round,
            Outcome outcome,
            Target.Stats before,
            Target.Stats after,
            ServerCost cost,
            Map<String, ThreadClassCost> generatorThreads,
            Long listenDrops) {}

    /**
     * Request threads are flagged starved when they waited on the run queue at least as long as they ran: a request
     * thread that became runnable then waited, on average, as long for a CPU as it went on to use. Below it the wait is
     * the scheduler's ordinary latency; above it, more threads want the CPUs than they have, and latency and throughput
     * fall next (docs/cpu-bill.md).
     */
    static final double STARVED_WAIT_RATIO = 1.0;

    private RunAnalysis() {}

    /**
     * The run as results.json holds it; a server delaying other than every {@code delayEvery}th request is a
     * problem too. Each side's CPU use is a share of its own CPUs as {@code pinning} set them.
     */
    static Run analyse(Readings run, int delayEvery, long delayMs, CpuPinning pinning, List<String> problems) {
        return analyse(run, delayEvery, delayMs, null, pinning, problems);
    }

    /** @param rampupSeconds the run's ramp-up, for the cause of a reading above the bound; null when not known */
    static Run analyse(
            Readings run,
            int delayEvery,
            long delayMs,
            Integer rampupSeconds,
            CpuPinning pinning,
            List<String> problems) {
        Outcome outcome = run.outcome();
        Double bound = bound(run.concurrency(), delayEvery, delayMs);
        double seconds = outcome.window().durationSeconds();
        Double generatorShare = generatorShare(outcome, pinning);
        boolean generatorBound = generatorShare != null && generatorShare >= BOUND_SHARE;
        ServerCost cost = run.cost();
        Double serverShare = serverShare(cost, outcome, pinning);
        boolean serverBound = serverShare != null && serverShare >= BOUND_SHARE;
        List<String> notes = new ArrayList<>(outcome.notes());
        Double ratio = bound == null ? null : round(outcome.window().requestsPerSecond() / bound, 4);
        if (ratio != null && outcome.open() == null && ratio > AboveBound.LIMIT) {
            notes.add(AboveBound.note(ratio, seconds, rampupSeconds, delayMs));
        }
        if (generatorBound) {
            notes.add(generatorBoundNote(outcome, generatorShare, pinning));
        }
        if (serverBound) {
            notes.add(String.format(
                    Locale.ROOT,
                    "server-bound: the server used %.0f %% of its %s CPUs",
                    100 * serverShare,
                    cpus(pinning.serverShareCpus())));
        }
        addIfAny(notes, compiling(cost, outcome.window().requestsPerSecond()));
        String serverStarved = starved(Note.SERVER_STARVED, cost == null ? null : cost.threads());
        String generatorStarved = starved(Note.GENERATOR_STARVED, run.generatorThreads());
        addIfAny(notes, serverStarved);
        addIfAny(notes, generatorStarved);
        notes.addAll(statsNotes(run, delayEvery, problems));
        Target.Stats after = run.after();
        Results.Reconciliation reconciliation = !after.reported()
                ? null
                : Results.Reconciliation.of(
                        after.requests() - run.before().requests(),
                        outcome.answers().answered(),
                        outcome.answers().unansweredAllowance());
        return new Run(
                run.server().name(),
                after.strategy(),
                run.concurrency(),
                run.engine(),
                run.round(),
                null,
                load(outcome, bound, ratio, rampupSeconds),
                outcome.latency(),
                serverSide(cost, serverShare, serverBound, serverStarved != null, run.listenDrops()),
                new Run.GeneratorSide(
                        round(outcome.generatorCpuSeconds(), 2),
                        generatorShare,
                        generatorBound,
                        run.generatorThreads(),
                        generatorStarved != null),
                reconciliation,
                notes,
                outcome.open(),
                new Run.Distributed(
                        outcome.cluster().agents(), outcome.cluster().coordination()),
                outcome.timeline());
    }

    private static Run.Load load(Outcome outcome, Double bound, Double ratio, Integer rampupSeconds) {
        Double warmup = outcome.timeline() == null || rampupSeconds == null
                ? null
                : round(Math.max(0, outcome.timeline().measureStartSecond() - rampupSeconds), 1);
        return new Run.Load(
                outcome.window().requests(),
                outcome.window().failed(),
                round(outcome.window().durationSeconds(), 3),
                round(outcome.window().requestsPerSecond(), 1),
                bound,
                ratio,
                outcome.window().connectionsOpened(),
                warmup);
    }

    private static Run.ServerSide serverSide(
            ServerCost cost, Double serverShare, boolean serverBound, boolean starved, Long listenDrops) {
        return new Run.ServerSide(
                cost == null ? null : cost.cpuSeconds(),
                cost == null || cost.cpuMicrosPerRequest() == null ? null : round(cost.cpuMicrosPerRequest(), 1),
                serverShare,
                cost == null ? null : cost.peakRssMb(),
                serverBound,
                null,
                cost,
                null,
                starved,
                listenDrops);
    }

    private static void addIfAny(List<String> notes, String note) {
        if (note != null) {
            notes.add(note);
        }
    }

    /**
     * The server's CPU share over the /stats reads' own window (CPU per request x requests/s), not the client's: a
     * saturated server answers the last read late, and its CPU until then over the client's seconds would read as more
     * than its CPUs can give. Null without its cost.
     */
    private static Double serverShare(ServerCost cost, Outcome outcome, CpuPinning pinning) {
        return cost == null || cost.cpuMicrosPerRequest() == null
                ? null
                : round(
                        cost.cpuMicrosPerRequest()
                                * outcome.window().requestsPerSecond()
                                / 1e6
                                / pinning.serverShareCpus(),
                        3);
    }

    /** The generator used its CPUs to the full: this JVM, or from a cluster the busiest agent. */
    private static String generatorBoundNote(Outcome outcome, double generatorShare, CpuPinning pinning) {
        if (outcome.cluster().agents() != null) {
            Results.AgentRun busiest = outcome.cluster().agents().stream()
                    .max(java.util.Comparator.comparingDouble(Results.AgentRun::generatorCpuShare))
                    .orElseThrow();
            return String.format(
                    Locale.ROOT,
                    "generator-bound: agent %s used %.0f %% of its %d CPUs; the figure may be the"
                            + " generators' limit, not the server's (add agents)",
                    busiest.name(),
                    100 * busiest.generatorCpuShare(),
                    busiest.cpus());
        }
        return String.format(
                Locale.ROOT,
                "generator-bound: the load generator used %.0f %% of its %s CPUs; the figure may"
                        + " be the generator's limit, not the server's",
                100 * generatorShare,
                cpus(pinning.generatorShareCpus()));
    }

    /** What the server's /stats after the run lacks or contradicts; a count off its delay is a problem too. */
    private static List<String> statsNotes(Readings run, int delayEvery, List<String> problems) {
        List<String> notes = new ArrayList<>();
        Target.Stats after = run.after();
        if (!after.reported()) {
            notes.add("server CPU, peak RSS, cost and counts n/a: "
                    + run.server().name() + " at " + run.server().base() + " has no /stats");
        } else if (run.cost() == null) {
            notes.add("server CPU, peak RSS and cost n/a: " + run.server().name() + " at "
                    + run.server().base()
                    + " reports no process figures on its /stats (an older jar, or another server)");
        }
        if (!after.delaysEvery(delayEvery)) {
            String mismatch = delayEveryMismatch(run.server(), after, delayEvery);
            notes.add(mismatch);
            problems.add(mismatch);
        }
        if (after.inFlight() > 0) {
            notes.add(after.inFlight() + " request(s) still in flight at the server when its count was read");
        }
        return notes;
    }

    /**
     * A note of {@code kind} when its side's request threads (io, worker, carrier; the generator's event loops are io)
     * waited on the run queue {@link #STARVED_WAIT_RATIO} times their CPU time or more; null otherwise or without the
     * bill.
     */
    static String starved(Note kind, Map<String, ThreadClassCost> bill) {
        Double cpu = ThreadClassCost.sum(bill, ThreadClassCost.REQUEST_CLASSES, ThreadClassCost::cpuMicrosPerRequest);
        Double wait = ThreadClassCost.sum(
                bill, ThreadClassCost.REQUEST_CLASSES, ThreadClassCost::runQueueWaitMicrosPerRequest);
        if (cpu == null || wait == null || cpu <= 0 || wait < STARVED_WAIT_RATIO * cpu) {
            return null;
        }
        return kind.write(String.format(
                Locale.ROOT,
                "its %s waited %.1f us per request on the run queue, %.1f x the %.1f us"
                        + " they ran: more threads wanted its CPUs than it had",
                kind == Note.GENERATOR_STARVED ? "event loops" : "request threads (io, worker, carrier)",
                wait,
                wait / cpu,
                cpu));
    }

    /** The generator's CPU share: this JVM's over its CPUs or, from a cluster, the busiest agent's over its own. */
    private static Double generatorShare(Outcome outcome, CpuPinning pinning) {
        if (outcome.cluster().agents() != null) {
            return outcome.cluster().agents().stream().mapToDouble(Results.AgentRun::generatorCpuShare).max().stream()
                    .mapToObj(share -> round(share, 3))
                    .findFirst()
                    .orElse(null);
        }
        double seconds = outcome.window().durationSeconds();
        return seconds > 0 ? round(outcome.generatorCpuSeconds() / seconds / pinning.generatorShareCpus(), 3) : null;
    }

    /**
     * A note when the JIT compiled for a tenth or more of the server's CPU time in the window: its CPU per request then
     * counts the compiler too. Its compiler threads' CPU where the bill by thread class gives it, else its compile
     * time, elapsed in its threads (so "up to"). A longer warm-up does not always end it: HotSpot on one core kept
     * compiling 25-39 ms a second after 45 s of warm-up.
     */
    static String compiling(ServerCost cost, double requestsPerSecond) {
        if (cost == null || !cost.compiling(requestsPerSecond)) {
            return null;
        }
        Double compilerThreads = cost.classShare("jit");
        if (compilerThreads != null) {
            return String.format(
                    Locale.ROOT,
                    "JIT compiling: its compiler threads used %.0f %% of the server's CPU in the window, which its CPU"
                            + " per request includes",
                    100 * compilerThreads);
        }
        return String.format(
                Locale.ROOT,
                "JIT compiling: %.0f ms per second of the window, up to %.0f %% of the server's"
                        + " CPU there, which its CPU per request includes",
                cost.jitMsPerSecond(),
                Math.min(100, 100 * cost.jitShare(requestsPerSecond)));
    }

    /** "1" or, not pinned, "half the machine's 1.0". */
    private static String cpus(double count) {
        return count == Math.rint(count) ? String.valueOf((long) count) : String.format(Locale.ROOT, "%.1f", count);
    }

    /**
     * C closed-loop clients, one request in {@code delayEvery} held {@code delayMs}: at most C x N / delay requests/s.
     */
    static Double bound(int concurrency, int delayEvery, long delayMs) {
        if (delayEvery <= 0 || delayMs <= 0) {
            return null;
        }
        return concurrency * (double) delayEvery / (delayMs / 1000.0);
    }

    /**
     * For the blocking strategy, the share of the worker pool ({@code workers} threads) its delayed requests held over
     * the window: by Little's law, delayed answers per second x the delay (each holds a worker that long), over the
     * pool. At 0.9 or more the pool, not the CPUs, sets the pace. Null for other strategies (no pool holds their
     * delays) and when the pool is not known.
     */
    static Double workerPoolShare(
            String strategy, double requestsPerSecond, int delayEvery, long delayMs, Integer workers) {
        if (!Strategy.BLOCKING.id().equals(strategy) || workers == null || workers <= 0 || delayEvery <= 0) {
            return null;
        }
        return round(requestsPerSecond / delayEvery * (delayMs / 1000.0) / workers, 3);
    }

    static String delayEveryMismatch(Target server, Target.Stats stats, int delayEvery) {
        long expected = delayEvery == 0 ? 0 : stats.requests() / delayEvery;
        return String.format(
                Locale.ROOT,
                "--delay-every %d does not match %s at %s: its /stats counts %d delayed of %d requests,"
                        + " not %d; give the servers' own setting (the bound depends on it)",
                delayEvery,
                server.name(),
                server.base(),
                stats.delayed(),
                stats.requests(),
                expected);
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
