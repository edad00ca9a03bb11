package dev.threadbench.loadtest.cluster;

import dev.threadbench.loadtest.base.UsageException;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** compare's and run's options for driving the load from agents in the cluster instead of this JVM. */
public final class AgentsOptions {

    @Option(
            names = "--agents",
            paramLabel = "N",
            description = "generate the load on N agents (`loadtest agent` on other hosts) instead of here: each run's"
                    + " connections"
                    + " split evenly over them, their results merged (default: none, this JVM generates it)")
    private Integer agents;

    @Option(
            names = "--agents-timeout",
            paramLabel = "S",
            defaultValue = "60",
            description = "how long to wait for the N agents to join (default ${DEFAULT-VALUE} s)")
    private int agentsTimeoutSeconds;

    @Mixin
    private ClusterOptions cluster;

    /** The agents asked for; null when the load is generated here. */
    public Request request() {
        if (agents == null) {
            return null;
        }
        if (agents < 1) {
            throw new UsageException("--agents: must be at least 1, got " + agents);
        }
        if (agentsTimeoutSeconds < 1) {
            throw new UsageException("--agents-timeout: must be at least 1 second, got " + agentsTimeoutSeconds);
        }
        return new Request(agents, Duration.ofSeconds(agentsTimeoutSeconds), cluster.settings());
    }

    /** N agents, how long to wait for them, and how to join their cluster. */
    public record Request(int agents, Duration timeout, ClusterSettings cluster) {

        /** Refuses a concurrency that cannot give every agent a connection. */
        public void checkConcurrency(String option, long connections) {
            if (connections < agents) {
                throw new UsageException(option + ": " + connections + " connection(s) cannot be split over " + agents
                        + " agents: give at least one per agent");
            }
        }
    }
}
