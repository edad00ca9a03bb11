package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Note;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.model.ServerCost;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.ThreadClassCost;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One server x strategy x concurrency (x engine, x open-model rate) over all its rounds: what the table and the report
 * show, each figure as its median and range ({@link Spread}).
 */
public record Cell(int concurrency, String strategy, String server, String engine, List<Run> runs) {

    /**
     * In table order (by concurrency, then strategy, then server), each with its runs in round order; a sweep's ends
     * measured again are left out (their pair shows them beside the first reading: {@link #remeasuredEnds}).
     */
    public static List<Cell> of(List<Run> runs) {
        return group(runs.stream().filter(run -> !run.endsRemeasure()).toList());
    }

    /** The sweep's ends measured again after its narrowing in, as cells like {@link #of}'s. */
    public static List<Cell> remeasuredEnds(List<Run> runs) {
        return group(runs.stream().filter(Run::endsRemeasure).toList());
    }

    private static List<Cell> group(List<Run> runs) {
        Map<List<Object>, List<Run>> groups = new LinkedHashMap<>();
        for (Run run : ordered(runs)) {
            groups.computeIfAbsent(
                            List.of(
                                    run.concurrency(),
                                    String.valueOf(run.targetRate()),
                                    String.valueOf(run.strategy()),
                                    run.server(),
                                    run.engine()),
                            key -> new ArrayList<>())
                    .add(run);
        }
        return groups.values().stream()
                .map(group -> {
                    Run first = group.getFirst();
                    return new Cell(
                            first.concurrency(),
                            first.strategy(),
                            first.server(),
                            first.engine(),
                            group.stream()
                                    .sorted(Comparator.comparingInt(Run::round))
                                    .toList());
                })
                .toList();
    }

    public Cell {
        runs = List.copyOf(runs);
    }

    /** server/strategy; the server alone when its strategy is unknown (a target without /stats). */
    public String label() {
        return strategy == null ? server : server + "/" + strategy;
    }

    /** The open model's target rate, null for a closed loop. */
    public Double targetRate() {
        return runs.getFirst().targetRate();
    }

    public int rounds() {
        return runs.size();
    }

    public Spread spread(Function<Run, Double> figure) {
        return Spread.of(runs.stream().map(figure).toList());
    }

    public Spread requestsPerSecond() {
        return spread(run -> run.load().requestsPerSecond());
    }

    public Spread serverCpuMicrosPerRequest() {
        return spread(Cell::serverCpuMicrosPerRequest);
    }

    /** One run's: derived from the CPU seconds and the requests for files from before it was recorded. */
    static Double serverCpuMicrosPerRequest(Run r) {
        return r.serverSide().cpuMicrosPerRequest() != null
                        || r.serverSide().cpuSeconds() == null
                        || r.load().requests() == 0
                ? r.serverSide().cpuMicrosPerRequest()
                : Double.valueOf(
                        Math.round(r.serverSide().cpuSeconds() * 1e7 / r.load().requests()) / 10.0);
    }

    /**
     * The request CPU: the server's io, worker and carrier threads' CPU per request (its JIT, GC and housekeeping
     * apart); the whole process's for runs without the bill by thread class (older files and servers, off Linux).
     */
    public Spread requestCpuMicrosPerRequest() {
        return billed() ? cost(ServerCost::requestCpuMicrosPerRequest) : serverCpuMicrosPerRequest();
    }

    /** Whether every round has the server's bill by thread class: then its request CPU is apart from its JIT and GC. */
    public boolean billed() {
        return runs.stream()
                .allMatch(r ->
                        r.serverSide().cost() != null && r.serverSide().cost().threads() != null);
    }

    /** One thread class's figure over the rounds; null when no round has the bill. */
    public Spread threadClass(String threadClass, Function<ThreadClassCost, Double> figure) {
        return cost(c -> c.threads() == null || c.threads().get(threadClass) == null
                ? null
                : figure.apply(c.threads().get(threadClass)));
    }

    /** The generator's own figure summed over {@code classes}, over the rounds; null when no round has its bill. */
    public Spread generatorThreads(List<String> classes, Function<ThreadClassCost, Double> figure) {
        return spread(r -> ThreadClassCost.sum(r.generatorSide().threads(), classes, figure));
    }

    /** The generator's CPU time per request, from its CPU seconds over the window and the requests measured in it. */
    public Spread generatorCpuMicrosPerRequest() {
        return spread(r -> r.generatorSide().cpuSeconds() == null || r.load().requests() == 0
                ? null
                : Double.valueOf(Math.round(
                                r.generatorSide().cpuSeconds() * 1e7 / r.load().requests())
                        / 10.0));
    }

    /** One of the server's cost figures over the rounds; null when no round has it. */
    public Spread cost(Function<ServerCost, Double> figure) {
        return spread(r -> r.serverSide().cost() == null
                ? null
                : figure.apply(r.serverSide().cost()));
    }

    /** Whether the server reported its process figures on /stats. */
    public boolean costMeasured() {
        return runs.stream().anyMatch(r -> r.serverSide().cost() != null);
    }

    /** Whether the server's CPU and RSS were measured: it reported them (older files: compare had started it). */
    public boolean serverMeasured() {
        return runs.stream().anyMatch(r -> r.serverSide().cpuSeconds() != null);
    }

    public Double bound() {
        return runs.getFirst().load().bound();
    }

    public long failed() {
        return runs.stream().mapToLong(r -> r.load().failed().total()).sum();
    }

    /** Rounds with one failed request or more. */
    public long failedRounds() {
        return runs.stream().filter(r -> r.load().failed().total() > 0).count();
    }

    /** Rounds whose delayed requests held {@code share} or more of the server's worker pool. */
    public long workerPoolRounds(double share) {
        return runs.stream()
                .filter(r -> r.serverSide().workerPoolShare() != null
                        && r.serverSide().workerPoolShare() >= share)
                .count();
    }

    /** Rounds in which the kernel dropped connection attempts at the server's full accept queue. */
    public long dropRounds() {
        return runs.stream().filter(Run::listenDropped).count();
    }

    /** The procedure its runs were measured with in a sweep ({@link Run#phase}); null outside one. */
    public Run.Phase phase() {
        return runs.getFirst().phase();
    }

    public long generatorBoundRounds() {
        return runs.stream().filter(run -> run.generatorSide().cpuBound()).count();
    }

    /** Rounds whose server's JIT compiled for a tenth or more of its CPU in the window. */
    public long compilingRounds() {
        return runs.stream()
                .filter(r -> r.serverSide().cost() != null
                        && r.serverSide().cost().compiling(r.load().requestsPerSecond()))
                .count();
    }

    /** Rounds whose auto warm-up ended at its cap, the server's JIT not settled ({@link Note#WARMUP_CAPPED}). */
    public long warmUpCappedRounds() {
        return runs.stream().filter(r -> Note.WARMUP_CAPPED.in(r.notes())).count();
    }

    /** Rounds whose server's request threads or generator's event loops waited on the run queue as long as they ran. */
    public long starvedRounds() {
        return runs.stream()
                .filter(r -> r.serverStarved() || r.generatorStarved())
                .count();
    }

    /** Closed-loop rounds that read above the bound: measurement artefacts ({@link AboveBound}). */
    public long aboveBoundRounds() {
        return runs.stream().filter(AboveBound::of).count();
    }

    public long serverBoundRounds() {
        return runs.stream().filter(run -> run.serverSide().cpuBound()).count();
    }

    /** Rounds whose server's request threads waited on the run queue as long as they ran ({@link Note}). */
    public long serverStarvedRounds() {
        return runs.stream().filter(Run::serverStarved).count();
    }

    /** Rounds whose generator's event loops waited on the run queue as long as they ran. */
    public long generatorStarvedRounds() {
        return runs.stream().filter(Run::generatorStarved).count();
    }

    /** Rounds in which the server was short of CPU time: its CPUs full, or its request threads starved. */
    public long serverShortOfCpuRounds() {
        return runs.stream()
                .filter(r -> r.serverSide().cpuBound() || r.serverStarved())
                .count();
    }

    /** Rounds in which the generator was short of CPU time: its CPUs full, or its event loops starved. */
    public long generatorShortOfCpuRounds() {
        return runs.stream()
                .filter(r -> r.generatorSide().cpuBound() || r.generatorStarved())
                .count();
    }

    /** Runs in the tables' order: by concurrency, open-model rate, strategy, server and round. */
    public static List<Run> ordered(List<Run> runs) {
        return runs.stream()
                .sorted(Comparator.comparingInt(Run::concurrency)
                        .thenComparing(Run::targetRate, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(Run::strategy, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(Run::server)
                        .thenComparingInt(Run::round))
                .toList();
    }

    /**
     * The rounds' counts in one: exact when all were; else the worst (a mismatch), or the largest explained difference.
     */
    public String counts() {
        List<Results.Reconciliation> all =
                runs.stream().map(Run::reconciliation).filter(c -> c != null).toList();
        if (all.isEmpty()) {
            return "-";
        }
        Results.Reconciliation worst = all.stream()
                .max(Comparator.comparingInt(
                                (Results.Reconciliation c) -> c.verdict().ordinal())
                        .thenComparingLong(c -> Math.abs(c.difference())))
                .orElseThrow();
        String text = worst.describe();
        long notExact = all.stream()
                .filter(c -> c.verdict() != Results.Reconciliation.Match.EXACT)
                .count();
        return notExact == 0 || all.size() == 1
                ? text
                : text + String.format(Locale.ROOT, " in %d/%d", notExact, all.size());
    }

    /** The round whose requests/s is nearest the median: its latency curve stands for the cell's. */
    public Run medianRun() {
        double median = requestsPerSecond().median();
        return runs.stream()
                .min(Comparator.comparingDouble(r -> Math.abs(r.load().requestsPerSecond() - median)))
                .orElseThrow();
    }

    /** The figures the report page draws, as JSON. */
    public record Summary(
            int concurrency,
            String strategy,
            String server,
            String engine,
            int rounds,
            Double bound,
            Spread requestsPerSecond,
            Spread ratioToBound,
            Spread p50,
            Spread p90,
            Spread p99,
            Spread p999,
            Spread max,
            Spread serverCpuSeconds,
            Spread serverCpuMicrosPerRequest,
            Spread serverCpuShare,
            Spread serverPeakRssMb,
            Spread generatorCpuSeconds,
            Spread generatorCpuShare,
            long failed,
            String counts,
            long serverBoundRounds,
            long generatorBoundRounds,
            long compilingRounds,
            int medianRound,
            Spread cpuUserMicrosPerRequest,
            Spread cpuSystemMicrosPerRequest,
            Spread peakThreads,
            Spread contextSwitchesPerRequest,
            Spread heapAfterGcMb,
            Spread gcPauseMsPerSecond,
            Spread jitMsPerSecond,
            Double targetRate,
            long aboveBoundRounds,
            Spread generatorCpuMicrosPerRequest,
            Spread requestCpuMicrosPerRequest,
            boolean billed) {}

    public Summary summary() {
        return new Summary(
                concurrency,
                strategy,
                server,
                engine,
                rounds(),
                bound(),
                requestsPerSecond(),
                spread(run -> run.load().ratioToBound()),
                spread(r -> r.latency().latencyMs().p50()),
                spread(r -> r.latency().latencyMs().p90()),
                spread(r -> r.latency().latencyMs().p99()),
                spread(r -> r.latency().latencyMs().p999()),
                spread(r -> r.latency().latencyMs().max()),
                spread(run -> run.serverSide().cpuSeconds()),
                serverCpuMicrosPerRequest(),
                spread(run -> run.serverSide().cpuShare()),
                spread(run -> run.serverSide().peakRssMb()),
                spread(run -> run.generatorSide().cpuSeconds()),
                spread(run -> run.generatorSide().cpuShare()),
                failed(),
                counts(),
                serverBoundRounds(),
                generatorBoundRounds(),
                compilingRounds(),
                medianRun().round(),
                cost(ServerCost::cpuUserMicrosPerRequest),
                cost(ServerCost::cpuSystemMicrosPerRequest),
                cost(c -> c.peakThreads() == null ? null : c.peakThreads().doubleValue()),
                cost(ServerCost::contextSwitchesPerRequest),
                cost(ServerCost::heapAfterGcMb),
                cost(ServerCost::gcPauseMsPerSecond),
                cost(ServerCost::jitMsPerSecond),
                targetRate(),
                aboveBoundRounds(),
                generatorCpuMicrosPerRequest(),
                requestCpuMicrosPerRequest(),
                billed());
    }
}
