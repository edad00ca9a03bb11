package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.model.Profile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The console's lines for --profile: each profiled run, its flame graph and its share per bucket. */
public final class ProfileLines {

    private ProfileLines() {}

    public static List<String> of(List<Profile> profiles) {
        List<String> lines = new ArrayList<>();
        if (profiles.isEmpty()) {
            return lines;
        }
        lines.add("profiles (" + profiles.getFirst().modeDescription() + "), share of "
                + profiles.getFirst().unit() + " per bucket:");
        for (Profile p : profiles) {
            lines.add(String.format(
                    Locale.ROOT,
                    "  %s/%s C=%d round %d: %s  %s",
                    p.server(),
                    p.strategy(),
                    p.concurrency(),
                    p.round() + 1,
                    p.flameGraph(),
                    p.buckets().stream()
                            .map(s -> String.format(Locale.ROOT, "%s %.0f%%", s.bucket(), 100 * s.share()))
                            .collect(Collectors.joining(", "))));
        }
        lines.add("");
        return lines;
    }
}
