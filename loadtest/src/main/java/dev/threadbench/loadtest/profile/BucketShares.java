package dev.threadbench.loadtest.profile;

import dev.threadbench.loadtest.model.Profile;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Collapsed stacks ("root;...;leaf weight" per line, as the converter writes them) summed into the buckets. */
public final class BucketShares {

    private BucketShares() {}

    /** Each bucket's weight (samples, or bytes for alloc), every bucket present, in {@link Bucket}'s order. */
    public static Map<Bucket, Long> weights(String collapsed) {
        Map<Bucket, Long> weights = new EnumMap<>(Bucket.class);
        for (Bucket bucket : Bucket.values()) {
            weights.put(bucket, 0L);
        }
        collapsed.lines().forEach(line -> {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                return;
            }
            long weight;
            try {
                weight = Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                return;
            }
            weights.merge(Bucket.of(List.of(line.substring(0, space).split(";"))), weight, Long::sum);
        });
        return weights;
    }

    /** Each bucket's share of the whole, 0 to 1, rounded to 0.001; "other" always listed. */
    public static List<Profile.Share> shares(Map<Bucket, Long> weights) {
        long total = weights.values().stream().mapToLong(Long::longValue).sum();
        List<Profile.Share> shares = new ArrayList<>();
        weights.forEach((bucket, weight) -> shares.add(new Profile.Share(
                bucket.name().toLowerCase(java.util.Locale.ROOT),
                bucket.title(),
                total == 0 ? 0 : Math.round(1000.0 * weight / total) / 1000.0)));
        return shares;
    }
}
