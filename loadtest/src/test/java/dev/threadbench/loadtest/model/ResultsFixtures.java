package dev.threadbench.loadtest.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A small, plausible results file for the report's tests. */
public final class ResultsFixtures {

    private ResultsFixtures() {}

    public static Run run(String server, String strategy, int concurrency, double rps, boolean generatorBound) {
        return run(server, strategy, concurrency, 0, rps, generatorBound, true);
    }

    public static Run run(
            String server,
            String strategy,
            int concurrency,
            double rps,
            boolean generatorBound,
            boolean startedByCompare) {
        return run(server, strategy, concurrency, 0, rps, generatorBound, startedByCompare);
    }

    /** @param startedByCompare false: a server compare reached with --targets, without its CPU, RSS and exit code */
    public static Run run(
            String server,
            String strategy,
            int concurrency,
            int round,
            double rps,
            boolean generatorBound,
            boolean startedByCompare) {
        double bound = 5.0 * concurrency;
        long requests = Math.round(rps * 20);
        return flat(
                server,
                strategy,
                concurrency,
                "embedded",
                round,
                requests,
                new Results.Failed(0, 0, 0, 0, 0, 0, 0),
                20.0,
                rps,
                bound,
                rps / bound,
                new Results.Latency(0.8, 2000.5, 2003.1, 2010.2, 2100.0, 201.0),
                startedByCompare ? 12.3 : null,
                startedByCompare ? Math.round(12.3e6 / requests * 10) / 10.0 : null,
                startedByCompare ? 0.615 : null,
                startedByCompare ? 345.6 : null,
                4.5,
                generatorBound ? 0.95 : 0.225,
                false,
                generatorBound,
                Results.Reconciliation.of(Math.round(rps * 27), Math.round(rps * 27), 0),
                (long) concurrency,
                startedByCompare ? 0 : null,
                List.of(
                        new LatencySummary.Point(0, 0.2),
                        new LatencySummary.Point(50, 0.8),
                        new LatencySummary.Point(90, 1.5),
                        new LatencySummary.Point(99, 2003.1),
                        new LatencySummary.Point(99.9, 2010.2),
                        new LatencySummary.Point(100, 2100)),
                generatorBound ? List.of("generator-bound: used 0.95 cores") : List.of(),
                null,
                null,
                null,
                null,
                null);
    }

    public static Results results() {
        return new Results(
                environment("-Xms512m -Xmx2g"),
                settings(1),
                List.of(
                        run("undertow", "blocking", 1000, 4950, false), run("vertx", "timer", 1000, 4990, false),
                        run("undertow", "blocking", 2000, 9800, false), run("vertx", "timer", 2000, 9400, true)));
    }

    /** compare --rate 0.5x,0.9x at 1000 connections' bound: Undertow's p99 turns up at 90 %, Vert.x's does not. */
    public static Results openModel() {
        return new Results(
                environment("-Xms512m -Xmx2g"),
                settings(1),
                List.of(
                        open(run("undertow", "blocking", 1000, 2500, false), 2500, 2010),
                                open(run("vertx", "timer", 1000, 2500, false), 2500, 2005),
                        open(run("undertow", "blocking", 1000, 4480, false), 4500, 9500),
                                open(run("vertx", "timer", 1000, 4490, false), 4500, 2020)));
    }

    private static Run open(Run r, double rate, double p99) {
        return flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                r.load().requestsPerSecond(),
                r.load().bound(),
                r.load().ratioToBound(),
                new Results.Latency(0.9, 2000.8, p99, p99 + 40, p99 + 90, 210.0),
                r.serverSide().cpuSeconds(),
                r.serverSide().cpuMicrosPerRequest(),
                r.serverSide().cpuShare(),
                r.serverSide().peakRssMb(),
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                r.notes(),
                r.serverSide().cost(),
                new Results.OpenModel("open", rate, rate - 1, (int) Math.ceil(rate / 5 * 1.5) + 16, 0, 0, 1.2),
                null,
                null,
                null);
    }

    /**
     * As compare --targets writes them: servers already running, their JVM options, CPU, RSS and exit codes unknown.
     */
    public static Results resultsOfRunningServers() {
        return new Results(
                environment(null),
                settings(1),
                List.of(
                        run("undertow", "blocking", 1000, 4950, false, false),
                        run("vertx", "timer", 1000, 4990, false, false)));
    }

    private static Results.Environment environment(String serverJvmOptions) {
        return new Results.Environment(
                "OpenJDK 64-Bit Server VM 25 (Eclipse Adoptium)",
                "Linux 6.1 amd64",
                "AMD EPYC",
                2,
                "2.4.4.Final",
                "5.0.7",
                "2026-11-30T00:00:00Z",
                serverJvmOptions,
                serverJvmOptions == null ? null : "",
                serverJvmOptions == null
                        ? new Results.Pinning(null, null, "not pinned: the servers were already running (--targets)")
                        : new Results.Pinning("0", "1", "taskset; server JVMs with -XX:ActiveProcessorCount=1"),
                null,
                null,
                null);
    }

    /**
     * Three rounds of both servers at 2000 connections: Undertow and Vert.x within each other's spread in
     * requests/s, Vert.x clearly cheaper in server CPU per request.
     */
    public static Results threeRounds() {
        List<Run> runs = new ArrayList<>();
        double[] undertow = {9960, 10003, 9994};
        double[] vertx = {9990, 9950, 9985};
        for (int round = 0; round < 3; round++) {
            runs.add(run("undertow", "blocking", 2000, round, undertow[round], false, true));
            runs.add(withCpu(run("vertx", "timer", 2000, round, vertx[round], false, true), 7.0 + 0.1 * round));
        }
        return new Results(environment("-Xms512m -Xmx2g"), settings(3), runs);
    }

    /** The run with the server's CPU time (and so its CPU per request and share) replaced. */
    public static Run withCpu(Run r, double serverCpuSeconds) {
        return withServer(
                r,
                serverCpuSeconds,
                Math.round(serverCpuSeconds * 1e6 / r.load().requests() * 10) / 10.0,
                serverCpuSeconds / r.load().durationSeconds(),
                r.serverSide().peakRssMb());
    }

    /** The run with the server's peak RSS replaced. */
    public static Run withRss(Run r, double peakRssMb) {
        return withServer(
                r,
                r.serverSide().cpuSeconds(),
                r.serverSide().cpuMicrosPerRequest(),
                r.serverSide().cpuShare(),
                peakRssMb);
    }

    private static Run withServer(
            Run r, Double serverCpuSeconds, Double cpuMicrosPerRequest, Double cpuShare, Double peakRssMb) {
        return flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                r.load().requestsPerSecond(),
                r.load().bound(),
                r.load().ratioToBound(),
                r.latency().latencyMs(),
                serverCpuSeconds,
                cpuMicrosPerRequest,
                cpuShare,
                peakRssMb,
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                r.notes(),
                r.serverSide().cost(),
                r.open(),
                r.cluster().agents(),
                r.cluster().coordination(),
                r.timeline());
    }

    /** The run with its requests/s (and so its share of the bound) replaced. */
    public static Run withRequestsPerSecond(Run r, double rps) {
        return flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                rps,
                r.load().bound(),
                rps / r.load().bound(),
                r.latency().latencyMs(),
                r.serverSide().cpuSeconds(),
                r.serverSide().cpuMicrosPerRequest(),
                r.serverSide().cpuShare(),
                r.serverSide().peakRssMb(),
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                r.notes(),
                r.serverSide().cost(),
                r.open(),
                r.cluster().agents(),
                r.cluster().coordination(),
                r.timeline());
    }

    /** The run with a timeline. */
    public static Run withTimeline(Run r, Results.Timeline timeline) {
        return flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                r.load().requestsPerSecond(),
                r.load().bound(),
                r.load().ratioToBound(),
                r.latency().latencyMs(),
                r.serverSide().cpuSeconds(),
                r.serverSide().cpuMicrosPerRequest(),
                r.serverSide().cpuShare(),
                r.serverSide().peakRssMb(),
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                r.notes(),
                r.serverSide().cost(),
                r.open(),
                r.cluster().agents(),
                r.cluster().coordination(),
                timeline);
    }

    /**
     * A run of 2 s ramp-up, 8 s warm-up, 16 s measured and its drain, second by second: the load rising over the
     * ramp-up, the closed loop's waves (more answers every other second), a slow start while the JIT compiles, one GC
     * pause at 12 s.
     */
    public static Results.Timeline timeline(double rps) {
        List<Results.GeneratorSecond> generator = new ArrayList<>();
        for (int s = 0; s < 28; s++) {
            double load = s < 2 ? rps * (s + 1) / 3 : s >= 26 ? rps * 0.1 : rps * (s % 2 == 0 ? 1.08 : 0.92);
            generator.add(new Results.GeneratorSecond(
                    s, Math.round(load), 0, s < 5 ? 0.4 : 0.05, s == 12 ? 2041.0 : 2001.2, s == 12 ? 2060.0 : 2005.0));
        }
        List<Results.ServerSample> server = new ArrayList<>();
        for (int t = 0; t < 56; t++) {
            server.add(new Results.ServerSample(
                    t * 0.5,
                    t == 0 ? null : t < 10 ? 0.55 : 0.2,
                    24L + Math.min(t, 8),
                    t == 0 ? null : t == 24 ? 14.0 : 0.0));
        }
        return new Results.Timeline(10.0, 26.0, generator, server);
    }

    /**
     * {@link #threeRounds}, each run with its timeline, and vertx's first round reading 102.1 % of the bound: a
     * measurement artefact, flagged.
     */
    public static Results overTime() {
        Results three = threeRounds();
        List<Run> runs = new ArrayList<>();
        for (Run r : three.runs()) {
            Run costed = flat(
                    r.server(),
                    r.strategy(),
                    r.concurrency(),
                    r.engine(),
                    r.round(),
                    r.load().requests(),
                    r.load().failed(),
                    r.load().durationSeconds(),
                    r.load().requestsPerSecond(),
                    r.load().bound(),
                    r.load().ratioToBound(),
                    r.latency().latencyMs(),
                    r.serverSide().cpuSeconds(),
                    r.serverSide().cpuMicrosPerRequest(),
                    r.serverSide().cpuShare(),
                    r.serverSide().peakRssMb(),
                    r.generatorSide().cpuSeconds(),
                    r.generatorSide().cpuShare(),
                    r.serverSide().cpuBound(),
                    r.generatorSide().cpuBound(),
                    r.reconciliation(),
                    r.load().connectionsOpened(),
                    r.serverSide().exitCode(),
                    r.latency().percentiles(),
                    r.notes(),
                    new ServerCost(
                            r.serverSide().cpuSeconds(),
                            r.serverSide().cpuMicrosPerRequest(),
                            0.8 * r.serverSide().cpuMicrosPerRequest() + r.round(),
                            0.2 * r.serverSide().cpuMicrosPerRequest(),
                            2035L + 10 * r.round(),
                            1.27,
                            345.6 + r.round(),
                            20.4 + r.round(),
                            512.0,
                            4L + r.round(),
                            1.25,
                            12.5 + r.round(),
                            33,
                            null),
                    r.open(),
                    r.cluster().agents(),
                    r.cluster().coordination(),
                    r.timeline());
            runs.add(withTimeline(costed, timeline(r.load().requestsPerSecond())));
        }
        runs.set(1, withRequestsPerSecond(runs.get(1), 10_210));
        return new Results(three.environment(), three.settings(), runs);
    }

    /** compare --agents 2: both servers at 2000 connections, each run's 1,000 and 1,000 on two agents. */
    public static Results fromAgents() {
        List<Run> runs = new ArrayList<>();
        for (Run r :
                List.of(run("undertow", "blocking", 2000, 9990, false), run("vertx", "timer", 2000, 9996, false))) {
            List<Results.AgentRun> agents = List.of(
                    new Results.AgentRun(
                            "agent1",
                            "198.18.0.3",
                            1000,
                            r.load().requests() / 2,
                            0,
                            r.load().requestsPerSecond() / 2,
                            2003.1,
                            1.9,
                            0.048,
                            2,
                            r.reconciliation().clientAnswered() / 2,
                            0.3),
                    new Results.AgentRun(
                            "agent2",
                            "198.18.0.4",
                            1000,
                            r.load().requests() - r.load().requests() / 2,
                            0,
                            r.load().requestsPerSecond() / 2,
                            2002.9,
                            2.1,
                            0.052,
                            2,
                            r.reconciliation().clientAnswered()
                                    - r.reconciliation().clientAnswered() / 2,
                            0.5));
            runs.add(flat(
                    r.server(),
                    r.strategy(),
                    r.concurrency(),
                    "cluster",
                    r.round(),
                    r.load().requests(),
                    r.load().failed(),
                    r.load().durationSeconds(),
                    r.load().requestsPerSecond(),
                    r.load().bound(),
                    r.load().ratioToBound(),
                    r.latency().latencyMs(),
                    r.serverSide().cpuSeconds(),
                    r.serverSide().cpuMicrosPerRequest(),
                    r.serverSide().cpuShare(),
                    r.serverSide().peakRssMb(),
                    4.0,
                    0.052,
                    r.serverSide().cpuBound(),
                    false,
                    r.reconciliation(),
                    r.load().connectionsOpened(),
                    r.serverSide().exitCode(),
                    r.latency().percentiles(),
                    r.notes(),
                    r.serverSide().cost(),
                    r.open(),
                    agents,
                    new Results.Coordination(3.2, 52, 3600),
                    null));
        }
        return new Results(
                environment("-Xms512m -Xmx2g"),
                new Results.Settings("cluster", 2, 5, 20, null, 10, 10, 2000, 0, 1, null, null, null, null, null),
                runs);
    }

    /**
     * Three rounds of both servers at 1000 connections, each with its bill by thread class: Undertow's request CPU
     * about 40 us per request, Vert.x's about 30, their JIT and GC apart (Vert.x still compiling more).
     */
    public static Results billed() {
        List<Run> runs = new ArrayList<>();
        double[][] undertow = {{32, 8, 0}, {32.5, 8.5, 0}, {31.5, 8}};
        double[][] vertx = {{30, 0, 0}, {30.8, 0, 0}, {30.4, 0, 0}};
        for (int round = 0; round < 3; round++) {
            runs.add(withBill(
                    run("undertow", "blocking", 1000, round, 4990, false, true), undertow[round], 1.0, 2.0, 12, 40));
            runs.add(withBill(run("vertx", "timer", 1000, round, 4995, false, true), vertx[round], 1.5, 8.0, 2, 3));
        }
        return new Results(environment("-Xms512m -Xmx2g"), settings(3), runs);
    }

    /**
     * The run with a cost whose bill has io, worker and carrier us/req as given, gc and jit, and the threads' waits.
     */
    public static Run withBill(
            Run r, double[] request, double gc, double jit, double serverWait, double generatorWait) {
        double requests = r.load().requestsPerSecond() * r.load().durationSeconds();
        java.util.Map<String, ThreadClassCost> bill = new java.util.LinkedHashMap<>();
        String[] names = {"io", "worker", "carrier"};
        for (int i = 0; i < 3; i++) {
            double us = i < request.length ? request[i] : 0;
            bill.put(names[i], classCost(us, i == 0 ? serverWait : 0, requests));
        }
        bill.put("gc", classCost(gc, 0, requests));
        bill.put("jit", classCost(jit, 0, requests));
        bill.put("other", classCost(0.5, 0, requests));
        bill.put("exited", classCost(0, 0, requests));
        double total = bill.values().stream()
                .mapToDouble(ThreadClassCost::cpuMicrosPerRequest)
                .sum();
        ServerCost cost = new ServerCost(
                total * requests / 1e6,
                total,
                total * 0.7,
                total * 0.3,
                40L,
                1.2,
                300.0,
                90.0,
                512.0,
                3L,
                1.0,
                jit * r.load().requestsPerSecond() / 1000,
                34,
                bill);
        java.util.Map<String, ThreadClassCost> generator =
                java.util.Map.of("io", classCost(20, generatorWait, requests));
        return flat(
                r.server(),
                r.strategy(),
                r.concurrency(),
                r.engine(),
                r.round(),
                r.load().requests(),
                r.load().failed(),
                r.load().durationSeconds(),
                r.load().requestsPerSecond(),
                r.load().bound(),
                r.load().ratioToBound(),
                r.latency().latencyMs(),
                cost.cpuSeconds(),
                total,
                r.serverSide().cpuShare(),
                r.serverSide().peakRssMb(),
                r.generatorSide().cpuSeconds(),
                r.generatorSide().cpuShare(),
                r.serverSide().cpuBound(),
                r.generatorSide().cpuBound(),
                r.reconciliation(),
                r.load().connectionsOpened(),
                r.serverSide().exitCode(),
                r.latency().percentiles(),
                r.notes(),
                cost,
                r.open(),
                r.cluster().agents(),
                r.cluster().coordination(),
                r.timeline(),
                generator,
                null,
                null,
                null);
    }

    private static ThreadClassCost classCost(double microsPerRequest, double waitMicrosPerRequest, double requests) {
        return new ThreadClassCost(
                microsPerRequest * requests / 1000,
                microsPerRequest * requests / 1400,
                microsPerRequest * requests / 3500,
                waitMicrosPerRequest * requests / 1000,
                100L,
                10L,
                1L,
                microsPerRequest,
                waitMicrosPerRequest);
    }

    private static Results.Settings settings(int rounds) {
        return new Results.Settings("embedded", 2, 5, 20, null, 10, 10, 2000, 1, rounds, null, null, null, null, null);
    }

    /** A run from its figures in results.json's order (the record groups them): for tests that set a few of them. */
    public static Run flat(
            String server,
            String strategy,
            int concurrency,
            String engine,
            int round,
            long requests,
            Results.Failed failed,
            double durationSeconds,
            double requestsPerSecond,
            Double bound,
            Double ratioToBound,
            Results.Latency latencyMs,
            Double serverCpuSeconds,
            Double serverCpuMicrosPerRequest,
            Double serverCpuShare,
            Double serverPeakRssMb,
            Double generatorCpuSeconds,
            Double generatorCpuShare,
            boolean serverBound,
            boolean generatorBound,
            Results.Reconciliation reconciliation,
            Long connectionsOpened,
            Integer serverExitCode,
            List<LatencySummary.Point> percentiles,
            List<String> notes,
            ServerCost cost,
            Results.OpenModel open,
            List<Results.AgentRun> agents,
            Results.Coordination coordination,
            Results.Timeline timeline) {
        return flat(
                server,
                strategy,
                concurrency,
                engine,
                round,
                requests,
                failed,
                durationSeconds,
                requestsPerSecond,
                bound,
                ratioToBound,
                latencyMs,
                serverCpuSeconds,
                serverCpuMicrosPerRequest,
                serverCpuShare,
                serverPeakRssMb,
                generatorCpuSeconds,
                generatorCpuShare,
                serverBound,
                generatorBound,
                reconciliation,
                connectionsOpened,
                serverExitCode,
                percentiles,
                notes,
                cost,
                open,
                agents,
                coordination,
                timeline,
                null,
                null,
                null,
                null);
    }

    /**
     * The same with the generator's thread classes, the warm-up's length, the sweep phase and the worker pool share.
     */
    public static Run flat(
            String server,
            String strategy,
            int concurrency,
            String engine,
            int round,
            long requests,
            Results.Failed failed,
            double durationSeconds,
            double requestsPerSecond,
            Double bound,
            Double ratioToBound,
            Results.Latency latencyMs,
            Double serverCpuSeconds,
            Double serverCpuMicrosPerRequest,
            Double serverCpuShare,
            Double serverPeakRssMb,
            Double generatorCpuSeconds,
            Double generatorCpuShare,
            boolean serverBound,
            boolean generatorBound,
            Results.Reconciliation reconciliation,
            Long connectionsOpened,
            Integer serverExitCode,
            List<LatencySummary.Point> percentiles,
            List<String> notes,
            ServerCost cost,
            Results.OpenModel open,
            List<Results.AgentRun> agents,
            Results.Coordination coordination,
            Results.Timeline timeline,
            Map<String, ThreadClassCost> generatorThreads,
            Double warmupSeconds,
            Run.Phase phase,
            Double workerPoolShare) {
        return new Run(
                server,
                strategy,
                concurrency,
                engine,
                round,
                phase,
                new Run.Load(
                        requests,
                        failed,
                        durationSeconds,
                        requestsPerSecond,
                        bound,
                        ratioToBound,
                        connectionsOpened,
                        warmupSeconds),
                new Run.Latencies(latencyMs, percentiles),
                new Run.ServerSide(
                        serverCpuSeconds,
                        serverCpuMicrosPerRequest,
                        serverCpuShare,
                        serverPeakRssMb,
                        serverBound,
                        serverExitCode,
                        cost,
                        workerPoolShare,
                        null,
                        null),
                new Run.GeneratorSide(generatorCpuSeconds, generatorCpuShare, generatorBound, generatorThreads, null),
                reconciliation,
                notes,
                open,
                new Run.Distributed(agents, coordination),
                timeline);
    }
}
