package dev.threadbench.loadtest.runner;

import java.time.Duration;

/** How long a load lasts, after the slots have ramped up and warmed up. */
public sealed interface LoadShape {

    /** Unmeasured load after the ramp-up, before measuring starts. */
    Duration warmup();

    /**
     * Measure for a fixed time: the requests that complete inside the window count. With a {@code warmupStep}, the
     * warm-up is {@code warmup} at most: it ends at the first whole step from the load's start, past the ramp-up and
     * one step more, at which {@link LoadRunner.Phases#warmedUp} says so (compare's auto warm-up: a step is one delay
     * period).
     */
    record Timed(Duration warmup, Duration duration, Duration warmupStep) implements LoadShape {

        public Timed(Duration warmup, Duration duration) {
            this(warmup, duration, null);
        }
    }

    /** Measure a fixed number of plan runs (drill's iterations): those started after the warm-up count. */
    record Counted(Duration warmup, long iterations) implements LoadShape {}
}
