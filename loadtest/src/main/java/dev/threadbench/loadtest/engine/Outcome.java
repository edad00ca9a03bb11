package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.LatencySummary;
import java.util.ArrayList;
import java.util.List;

/**
 * What an engine measured, in one shape for all engines.
 *
 * @param answered            answers received over the whole run (warm-up included), to set against the
 *                            server's count
 * @param unansweredAllowance how many more the server may have counted than were answered, and why
 *                            (requests that failed without an answer, or that the tool abandoned at its deadline)
 * @param connectionsOpened   null when the engine does not say
 * @param open                what the open model did; null for a closed loop
 * @param agents              each agent's share of a run the cluster made; null for one generator
 * @param coordination        what the cluster's coordination of the run cost; null for one generator
 * @param timeline            the generator's side of the run second by second (its {@code serverSamples} null: compare adds them);
 *                            null when the engine gives none
 */
public record Outcome(long requests, Results.Failed failed, double durationSeconds, double requestsPerSecond,
                      Results.Latency latency, List<LatencySummary.Point> percentiles, double clientCpuSeconds,
                      long answered, long unansweredAllowance, Long connectionsOpened, List<String> notes,
                      Results.OpenModel open, List<Results.AgentRun> agents, Results.Coordination coordination,
                      Results.Timeline timeline) {

    public Outcome {
        percentiles = List.copyOf(percentiles);
        notes = List.copyOf(notes);
        agents = agents == null ? null : List.copyOf(agents);
    }

    /** One generator's outcome. */
    public Outcome(long requests, Results.Failed failed, double durationSeconds, double requestsPerSecond,
                   Results.Latency latency, List<LatencySummary.Point> percentiles, double clientCpuSeconds,
                   long answered, long unansweredAllowance, Long connectionsOpened, List<String> notes,
                   Results.OpenModel open) {
        this(requests, failed, durationSeconds, requestsPerSecond, latency, percentiles, clientCpuSeconds, answered,
                unansweredAllowance, connectionsOpened, notes, open, null, null, null);
    }

    /** The same, as the cluster made it. */
    public Outcome inCluster(List<Results.AgentRun> perAgent, Results.Coordination cost) {
        return new Outcome(requests, failed, durationSeconds, requestsPerSecond, latency, percentiles, clientCpuSeconds, answered,
                unansweredAllowance, connectionsOpened, notes, open, perAgent, cost, timeline);
    }

    /** The same, with one more note. */
    public Outcome withNote(String note) {
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new Outcome(requests, failed, durationSeconds, requestsPerSecond, latency, percentiles, clientCpuSeconds, answered,
                unansweredAllowance, connectionsOpened, more, open, agents, coordination, timeline);
    }

    /** The same, with the generator's side of the run second by second. */
    public Outcome withTimeline(Results.Timeline generatorTimeline) {
        return new Outcome(requests, failed, durationSeconds, requestsPerSecond, latency, percentiles, clientCpuSeconds, answered,
                unansweredAllowance, connectionsOpened, notes, open, agents, coordination, generatorTimeline);
    }
}
