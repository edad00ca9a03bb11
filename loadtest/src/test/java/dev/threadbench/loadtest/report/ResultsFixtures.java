package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.runner.LatencySummary;
import java.util.List;

/** A small, plausible results file for the report's tests. */
public final class ResultsFixtures {

    private ResultsFixtures() {}

    static Results.Run run(String server, String strategy, int concurrency, double rps, boolean generatorBound) {
        return run(server, strategy, concurrency, rps, generatorBound, true);
    }

    /** @param startedByCompare false: a server compare reached with --targets, without its CPU, RSS and exit code */
    static Results.Run run(String server, String strategy, int concurrency, double rps, boolean generatorBound,
                           boolean startedByCompare) {
        double bound = 5.0 * concurrency;
        return new Results.Run(server, strategy, concurrency, "embedded", Math.round(rps * 20), new Results.Failed(0, 0, 0, 0, 0, 0, 0),
                20.0, rps, bound, rps / bound, new Results.Latency(0.8, 2000.5, 2003.1, 2010.2, 2100.0, 201.0),
                startedByCompare ? 12.3 : null, startedByCompare ? 345.6 : null, 4.5, generatorBound,
                Results.Reconciliation.of(Math.round(rps * 27), Math.round(rps * 27), 0), (long) concurrency, startedByCompare ? 0 : null,
                List.of(new LatencySummary.Point(0, 0.2), new LatencySummary.Point(50, 0.8), new LatencySummary.Point(90, 1.5),
                        new LatencySummary.Point(99, 2003.1), new LatencySummary.Point(99.9, 2010.2), new LatencySummary.Point(100, 2100)),
                generatorBound ? List.of("generator-bound: used 0.95 cores") : List.of());
    }

    public static Results results() {
        return new Results(environment("-Xms512m -Xmx2g"), settings(),
                List.of(run("undertow", "blocking", 1000, 4950, false), run("vertx", "timer", 1000, 4990, false),
                        run("undertow", "blocking", 2000, 9800, false), run("vertx", "timer", 2000, 9400, true)));
    }

    /** As compare --targets writes them: servers already running, their JVM options, CPU, RSS and exit codes unknown. */
    public static Results resultsOfRunningServers() {
        return new Results(environment(null), settings(),
                List.of(run("undertow", "blocking", 1000, 4950, false, false), run("vertx", "timer", 1000, 4990, false, false)));
    }

    private static Results.Environment environment(String serverJvmOptions) {
        return new Results.Environment("OpenJDK 64-Bit Server VM 25 (Eclipse Adoptium)", "Linux 6.1 amd64",
                "AMD EPYC", 2, "2.4.4.Final", "5.0.7", "2026-11-30T00:00:00Z", serverJvmOptions,
                serverJvmOptions == null ? null : "");
    }

    private static Results.Settings settings() {
        return new Results.Settings("embedded", 2, 5, 20, null, 10, 10, 2000, 2);
    }
}
