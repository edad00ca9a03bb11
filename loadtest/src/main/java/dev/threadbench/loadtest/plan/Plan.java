package dev.threadbench.loadtest.plan;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * A drill benchmark plan, validated: {@code iterations} runs of the steps in order, at most
 * {@code concurrency} of them in flight, their starts spread over {@code rampupSeconds}.
 */
public record Plan(URI base, int concurrency, long iterations, int rampupSeconds, List<Step> steps) {

    /** Where an http:// URL without a port connects, and what the agents' allow-lists read it as. */
    public static final int DEFAULT_PORT = 80;

    /** One request of the plan; {@code url} is absolute (the plan's base already applied). */
    public record Step(String name, String method, URI url, Map<String, String> headers) {

        /** The port the request goes to: the URL's, else {@link #DEFAULT_PORT} (the plan takes http:// only). */
        public int port() {
            return url.getPort() >= 0 ? url.getPort() : DEFAULT_PORT;
        }

        /** The Host header the runner writes: the URL's host (an IPv6 one in brackets), its port unless 80. */
        public String hostHeader() {
            String host = url.getHost();
            String bracketed = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
            return port() == DEFAULT_PORT ? bracketed : bracketed + ":" + port();
        }
    }

    public Plan {
        steps = List.copyOf(steps);
    }

    /** The same plan with command-line overrides applied and checked again; null leaves a value as it is. */
    public Plan with(URI newBase, Integer newConcurrency, Long newIterations, Integer newRampup) {
        List<Step> rebased = steps;
        if (newBase != null) {
            rebased = steps.stream()
                    .map(s -> new Step(s.name(), s.method(), PlanParser.rebase(s.url(), base, newBase), s.headers()))
                    .toList();
        }
        Plan plan = new Plan(
                newBase != null ? newBase : base,
                newConcurrency != null ? newConcurrency : concurrency,
                newIterations != null ? newIterations : iterations,
                newRampup != null ? newRampup : rampupSeconds,
                rebased);
        PlanParser.checkBounds(plan, "command line");
        return plan;
    }
}
