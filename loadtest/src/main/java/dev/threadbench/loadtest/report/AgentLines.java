package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The lines under a run the agents' cluster made: each agent's share, then what coordinating them cost. */
public final class AgentLines {

    private AgentLines() {}

    /**
     * Under a run the cluster made, one line per agent ("agent a1 (198.18.0.3): 1,000 connections, 4,999 req/s, p99
     * 2003 ms, 0 failed, generator CPU 31% of 1"), then how far apart they started and what coordinating them cost;
     * none otherwise.
     */
    public static List<String> of(Run r) {
        return of(r.cluster().agents(), r.cluster().coordination());
    }

    /** The same for a run's agents and coordination ({@code run --agents} prints them under drill's summary). */
    public static List<String> of(List<Results.AgentRun> agents, Results.Coordination coordination) {
        if (agents == null) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (Results.AgentRun a : agents) {
            lines.add(String.format(
                    Locale.ROOT,
                    "agent %s (%s): %,d connections, %,.0f req/s, p99 %s ms, %,d failed, %,d answered,"
                            + " generator CPU %.0f%% of %d",
                    a.name(),
                    a.host(),
                    a.connections(),
                    a.requestsPerSecond(),
                    ConsoleTable.ms(a.p99Ms()),
                    a.failed(),
                    a.answered(),
                    100 * a.generatorCpuShare(),
                    a.cpus()));
        }
        if (coordination != null) {
            lines.add(String.format(
                    Locale.ROOT,
                    "merged from %d agents (one histogram); starts at most %.1f ms apart;"
                            + " coordination %d messages, %,d bytes",
                    agents.size(),
                    coordination.startSkewMs(),
                    coordination.messages(),
                    coordination.bytes()));
        }
        return lines;
    }
}
