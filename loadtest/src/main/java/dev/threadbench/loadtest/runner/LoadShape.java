package dev.threadbench.loadtest.runner;

import java.time.Duration;

/** How long a load lasts, after the slots have ramped up and warmed up. */
public sealed interface LoadShape {

    /** Unmeasured load after the ramp-up, before measuring starts. */
    Duration warmup();

    /** Measure for a fixed time: the requests that complete inside the window count. */
    record Timed(Duration warmup, Duration duration) implements LoadShape {}

    /** Measure a fixed number of plan runs (drill's iterations): those started after the warm-up count. */
    record Counted(Duration warmup, long iterations) implements LoadShape {}
}
