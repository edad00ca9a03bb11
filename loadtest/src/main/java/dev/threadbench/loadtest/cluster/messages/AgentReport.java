package dev.threadbench.loadtest.cluster.messages;

import dev.threadbench.loadtest.runner.LoadResult;
import dev.threadbench.loadtest.runner.SecondSeries;
import java.util.Map;

/**
 * What one agent measured of a run, as its runner counted it; the latency histogram goes whole (HdrHistogram's
 * compressed encoding, base64), so that compare merges histograms and never averages percentiles.
 *
 * @param error        null when the run completed; else why not, in one line (the counts are then empty)
 * @param startLateMs  how long after its intended start (receipt + startInMillis) the agent started the load
 * @param cpus         the CPUs the agent's JVM may use: its generator CPU share is over these
 * @param seconds      the run second by second on the agent's own clock from its start (per-second histograms whole);
 *                     null when the run failed
 */
public record AgentReport(
        String runId,
        String agentNode,
        String agent,
        String host,
        int connections,
        long requests,
        long successes,
        Map<String, Long> failures,
        double durationSeconds,
        String histogram,
        long sent,
        long answered,
        long connectionsOpened,
        double generatorCpuSeconds,
        int cpus,
        String transport,
        String firstOtherFailure,
        LoadResult.Open open,
        double startLateMs,
        String error,
        SecondSeries seconds)
        implements ClusterMessage {}
