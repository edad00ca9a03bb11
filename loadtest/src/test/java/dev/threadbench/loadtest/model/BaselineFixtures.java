package dev.threadbench.loadtest.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic runs for judging against a baseline: one Undertow cell at 2000 connections, rounds with a known level and
 * noise.
 */
public final class BaselineFixtures {

    private BaselineFixtures() {}

    /**
     * {@code rounds} rounds at {@code rps} req/s, p99 {@code p99} ms and {@code cpu} us/req, each off by up to ±{@code
     * noise}.
     */
    public static Results run(int rounds, double rps, double p99, double cpu, double noise, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            runs.add(round(
                    round,
                    rps * (1 + noise * (2 * random.nextDouble() - 1)),
                    p99 * (1 + noise * (2 * random.nextDouble() - 1)),
                    cpu * (1 + noise * (2 * random.nextDouble() - 1))));
        }
        return new Results(
                ResultsFixtures.threeRounds().environment(),
                ResultsFixtures.threeRounds().settings(),
                runs);
    }

    public static Run round(int round, double rps, double p99, double cpu) {
        return round("undertow", round, rps, p99, cpu);
    }

    public static Run round(String server, int round, double rps, double p99, double cpu) {
        Run r = ResultsFixtures.run(server, "blocking", 2000, round, rps, false, true);
        return ResultsFixtures.flat(
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
                new Results.Latency(0.8, 2000.5, p99, p99 + 5, p99 + 90, 201.0),
                r.serverSide().cpuSeconds(),
                cpu,
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

    public static Results withEnvironment(Results results, Results.Environment environment) {
        return new Results(environment, results.settings(), results.runs());
    }
}
