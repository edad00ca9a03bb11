package dev.threadbench.loadtest.runner;

import dev.threadbench.loadtest.plan.Plan;
import java.time.Duration;
import java.util.List;

/**
 * What to run: the plan's steps in order per plan run, {@code concurrency} slots each holding one
 * keep-alive connection and one request at a time, slot i starting at i x rampup / concurrency.
 */
public record LoadSpec(List<Plan.Step> steps, int concurrency, Duration rampup, Duration timeout,
                       LoadShape shape, int eventLoops) {

    public LoadSpec {
        steps = List.copyOf(steps);
        if (concurrency < 1 || eventLoops < 1 || steps.isEmpty()) {
            throw new IllegalArgumentException("concurrency, event loops and steps must be at least 1");
        }
    }

    /** The event loops worth using: no more than the cores, no more than the slots. */
    public static int defaultEventLoops(int concurrency) {
        return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), concurrency));
    }
}
