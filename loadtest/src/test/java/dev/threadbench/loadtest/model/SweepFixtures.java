package dev.threadbench.loadtest.model;

import java.util.ArrayList;
import java.util.List;

/**
 * A small sweep for the report's tests: three rounds of undertow/blocking, undertow/timer and vertx/timer over
 * 250, 500, 1000 and 2000 connections, each figure spread by a round's +-1 %.
 */
public final class SweepFixtures {

    public static final List<Integer> CONCURRENCIES = List.of(250, 500, 1000, 2000);

    private SweepFixtures() {}

    /**
     * What a pair does at a concurrency: its share of the bound, failures, server CPU per request, memory, and flags.
     */
    public record Point(
            double ratio,
            long failed,
            double cpuMicros,
            double heapMb,
            double rssMb,
            boolean generatorBound,
            boolean serverBound) {
        public Point(double ratio, long failed, double cpuMicros, double heapMb, double rssMb, boolean generatorBound) {
            this(ratio, failed, cpuMicros, heapMb, rssMb, generatorBound, false);
        }
    }

    public interface Shape {
        Point at(int concurrency);
    }

    public static Run run(String server, String strategy, int concurrency, int round, Point p) {
        double wobble = 1 + 0.01 * (round - 1);
        Run base = ResultsFixtures.run(
                server, strategy, concurrency, round, p.ratio() * 5 * concurrency * wobble, p.generatorBound(), true);
        double cpu = p.cpuMicros() * wobble;
        ServerCost cost = new ServerCost(
                cpu * base.load().requests() / 1e6,
                cpu,
                0.8 * cpu,
                0.2 * cpu,
                20L + concurrency,
                2.0,
                p.rssMb() * wobble,
                p.heapMb() * wobble,
                1024.0,
                3L,
                1.5,
                4.0,
                20,
                null);
        return ResultsFixtures.flat(
                base.server(),
                base.strategy(),
                base.concurrency(),
                base.engine(),
                base.round(),
                base.load().requests(),
                new Results.Failed(p.failed(), p.failed(), 0, 0, 0, 0, 0),
                base.load().durationSeconds(),
                base.load().requestsPerSecond(),
                base.load().bound(),
                p.ratio() * wobble,
                base.latency().latencyMs(),
                cost.cpuSeconds(),
                cpu,
                p.serverBound() ? 0.99 : 0.5,
                p.rssMb() * wobble,
                base.generatorSide().cpuSeconds(),
                p.generatorBound() ? 0.95 : 0.3,
                p.serverBound(),
                p.generatorBound(),
                base.reconciliation(),
                base.load().connectionsOpened(),
                0,
                base.latency().percentiles(),
                base.notes(),
                cost,
                null,
                null,
                null,
                null);
    }

    public static List<Run> pair(String server, String strategy, Shape shape) {
        List<Run> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int c : CONCURRENCIES) {
                runs.add(run(server, strategy, c, round, shape.at(c)));
            }
        }
        return runs;
    }

    /**
     * undertow/blocking: breaks at 2000 (80 % of the bound, its CPUs full), CPU 2x timer's, 0.5 MB heap and 100 MB RSS
     * per 1,000. undertow/timer: holds throughout, 1 MB heap and 20 MB RSS per 1,000. vertx/timer: generator-bound at
     * 2000, CPU within a percent of undertow/timer's.
     */
    public static Results sweep(List<Results.Skipped> skipped) {
        List<Run> runs = new ArrayList<>();
        runs.addAll(pair(
                "undertow",
                "blocking",
                c -> new Point(c < 2000 ? 0.99 : 0.80, 0, 200, 50 + 0.0005 * c, 100 + 0.1 * c, false, c == 2000)));
        runs.addAll(pair("undertow", "timer", c -> new Point(0.99, 0, 100, 40 + 0.001 * c, 80 + 0.02 * c, false)));
        runs.addAll(pair(
                "vertx",
                "timer",
                c -> new Point(c < 2000 ? 0.99 : 0.90, 0, 101, 30 + 0.001 * c, 90 + 0.02 * c, c == 2000)));
        Results plain = ResultsFixtures.results();
        Results.Settings s = plain.settings();
        return new Results(
                plain.environment(),
                new Results.Settings(
                        s.engine(),
                        1,
                        3,
                        6,
                        null,
                        s.timeoutSeconds(),
                        s.delayEvery(),
                        s.delayMs(),
                        s.eventLoops(),
                        3,
                        true,
                        null,
                        null,
                        null,
                        null),
                runs,
                skipped);
    }
}
