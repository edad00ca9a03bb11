package dev.threadbench.loadtest.engine;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import dev.threadbench.loadtest.runner.SecondSeries;
import java.util.ArrayList;
import java.util.List;

/**
 * What an engine measured, in one shape for all engines.
 *
 * @param window              what the measured window did
 * @param latency             its latency and curve (the curve empty when the engine gives none)
 * @param generatorCpuSeconds the generator's CPU over the window
 * @param answers             what to set against the server's own count
 * @param open                what the open model did; null for a closed loop
 * @param cluster             each agent's share of a run the cluster made and what coordinating it cost; both null for
 *                            one generator
 * @param timeline            the generator's side of the run second by second (its {@code serverSamples} null: compare
 *                            adds them); null when the engine gives none
 * @param seconds             the same seconds' latency histograms (the embedded runner's, merged over agents), for the
 *                            .hlog; null when the engine gives none
 */
public record Outcome(
        Window window,
        Run.Latencies latency,
        double generatorCpuSeconds,
        Answers answers,
        List<String> notes,
        Results.OpenModel open,
        Run.Distributed cluster,
        Results.Timeline timeline,
        SecondSeries seconds) {

    /**
     * The measured window: its requests (answered or failed), failures by cause, length, rate, and the connections
     * opened (null when the engine does not say).
     */
    public record Window(
            long requests,
            Results.Failed failed,
            double durationSeconds,
            double requestsPerSecond,
            Long connectionsOpened) {}

    /**
     * Answers received over the whole run (warm-up included), and how many more the server may have counted than were
     * answered, and why (requests that failed without an answer, or that the tool abandoned at its deadline).
     */
    public record Answers(long answered, long unansweredAllowance) {}

    public Outcome {
        notes = List.copyOf(notes);
        cluster = cluster == null ? Run.Distributed.NONE : cluster;
    }

    /** One generator's outcome. */
    public Outcome(
            Window window,
            Run.Latencies latency,
            double generatorCpuSeconds,
            Answers answers,
            List<String> notes,
            Results.OpenModel open) {
        this(window, latency, generatorCpuSeconds, answers, notes, open, null, null, null);
    }

    /** The same, as the cluster made it. */
    public Outcome inCluster(List<Results.AgentRun> perAgent, Results.Coordination cost) {
        return new Outcome(
                window,
                latency,
                generatorCpuSeconds,
                answers,
                notes,
                open,
                new Run.Distributed(perAgent, cost),
                timeline,
                seconds);
    }

    /** The same, with one more note. */
    public Outcome withNote(String note) {
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new Outcome(window, latency, generatorCpuSeconds, answers, more, open, cluster, timeline, seconds);
    }

    /** The same, with the generator's side of the run second by second. */
    public Outcome withTimeline(Results.Timeline generatorTimeline) {
        return new Outcome(
                window, latency, generatorCpuSeconds, answers, notes, open, cluster, generatorTimeline, seconds);
    }

    /** The same, with the seconds' latency histograms. */
    public Outcome withSeconds(SecondSeries histograms) {
        return new Outcome(window, latency, generatorCpuSeconds, answers, notes, open, cluster, timeline, histograms);
    }
}
