package dev.threadbench.loadtest.model;

import java.util.List;

/**
 * One run's profile, as results.json keeps it: the server x strategy x concurrency and round it was recorded in (over
 * the measured window only), the mode, the flame graph's path relative to the results directory, how much was
 * sampled ({@code unit}: samples, or bytes for alloc) and each bucket's share of it.
 */
public record Profile(
        String server,
        String strategy,
        int concurrency,
        int round,
        String mode,
        String modeDescription,
        String flameGraph,
        long total,
        String unit,
        List<Share> buckets) {

    public Profile {
        buckets = List.copyOf(buckets);
    }

    /** A bucket's share of the samples (or bytes), 0 to 1. */
    public record Share(String bucket, String title, double share) {}
}
