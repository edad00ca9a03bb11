package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a sweep repeats a baseline sweep ({@code report --baseline}): each pair's interval beside its other reading,
 * the pairs' order, and the machine's pace in both.
 */
final class SweepAgreement {

    private SweepAgreement() {}

    /** A pair of this run's sweep beside the baseline's of the same server and strategy. */
    record Matched(SweepPair before, SweepPair now) {}

    /** Each of {@code after}'s pairs that {@code before} has too, in {@code after}'s order. */
    static List<Matched> matched(List<SweepPair> before, List<SweepPair> after) {
        List<Matched> matched = new ArrayList<>();
        for (SweepPair now : after) {
            before.stream()
                    .filter(b -> b.label().equals(now.label()))
                    .findFirst()
                    .ifPresent(b -> matched.add(new Matched(b, now)));
        }
        return matched;
    }

    /**
     * Whether two sweeps repeat each other: every pair in both has overlapping intervals (last held, first not held:
     * its breaking point lies between them, so two that overlap may share one), or held at every concurrency (or at
     * none) in both; and any two pairs whose intervals are apart in one sweep are not apart the other way round in the
     * other. Labels aside: a repeat is about where each pair stopped holding, whatever stopped it.
     */
    static String agree(List<SweepPair> before, List<SweepPair> after) {
        return agree(matched(before, after));
    }

    static String agree(List<Matched> both) {
        if (both.isEmpty()) {
            return "have no pair in common";
        }
        List<String> apart = new ArrayList<>();
        for (Matched p : both) {
            String why = disagreement(p.before(), p.now());
            if (why != null) {
                apart.add(p.now().label() + " " + why);
            }
        }
        int ordered = 0;
        for (int i = 0; i < both.size(); i++) {
            for (int j = i + 1; j < both.size(); j++) {
                int before0 = below(both.get(i).before(), both.get(j).before());
                int after0 = below(both.get(i).now(), both.get(j).now());
                if (before0 != 0 || after0 != 0) {
                    ordered++;
                }
                if (before0 != 0 && after0 != 0 && before0 != after0) {
                    apart.add(String.format(
                            Locale.ROOT,
                            "%s and %s in the opposite order",
                            both.get(i).now().label(),
                            both.get(j).now().label()));
                }
            }
        }
        if (!apart.isEmpty()) {
            return "disagree: " + String.join("; ", apart);
        }
        return String.format(
                Locale.ROOT,
                "agree: every pair's intervals overlap (%d pairs)%s",
                both.size(),
                ordered == 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", and where two pairs' intervals are apart (%d time%s),"
                                        + " they come in the same order in both",
                                ordered,
                                ordered == 1 ? "" : "s"));
    }

    /**
     * The servers' pace in two sweeps: each pair's CPU per request where its sweep compares it (the concurrency
     * nearest 2,000, held by every pair in the sweeps so far), this sweep's over the baseline's. Of one build, a pace
     * that moved is the machine's: a breaking point its server's core sets moves with it, so two intervals apart then
     * say nothing of the code. Null when no pair has the figure in both at one concurrency.
     */
    static String pace(List<SweepPair> before, List<SweepPair> after, boolean oneBuild) {
        return pace(matched(before, after), oneBuild);
    }

    static String pace(List<Matched> both, boolean oneBuild) {
        List<Matched> measured = both.stream()
                .filter(p -> p.before().cpuMicrosPerRequest() != null
                        && p.now().cpuMicrosPerRequest() != null
                        && p.before().cpuConcurrency() == p.now().cpuConcurrency())
                .toList();
        if (measured.isEmpty()) {
            return null;
        }
        Spread ratio = Spread.of(measured.stream()
                .map(p -> p.now().cpuMicrosPerRequest().median()
                        / p.before().cpuMicrosPerRequest().median())
                .toList());
        long beyondSpread = measured.stream()
                .filter(p ->
                        Spread.judge(p.before().cpuMicrosPerRequest(), p.now().cpuMicrosPerRequest())
                                == Spread.Judgement.APART)
                .count();
        boolean oneConcurrency =
                measured.stream().map(p -> p.now().cpuConcurrency()).distinct().count() == 1;
        String figures = String.format(
                Locale.ROOT,
                "CPU per request at %s: %.2fx the baseline's (median of %d pair%s, %.2fx-%.2fx), beyond the rounds'"
                        + " spread in %d",
                oneConcurrency
                        ? String.format(
                                Locale.ROOT,
                                "%,d connections",
                                measured.getFirst().now().cpuConcurrency())
                        : "the concurrency nearest 2,000",
                ratio.median(),
                measured.size(),
                measured.size() == 1 ? "" : "s",
                ratio.min(),
                ratio.max(),
                beyondSpread);
        if (2 * beyondSpread <= measured.size()) {
            return figures + ": the same pace as far as the rounds show";
        }
        boolean slower = ratio.median() > 1;
        return figures
                + (oneBuild
                        ? String.format(
                                Locale.ROOT,
                                ": one build in both, so the machine ran %s, and a breaking point its server's core"
                                        + " sets comes %s by about as much",
                                slower ? "slower" : "faster",
                                slower ? "lower" : "higher")
                        : ": the builds differ, so the machine's pace and the code's cost are not told apart");
    }

    /**
     * Why a pair's two readings disagree: intervals apart, or held everywhere (or nowhere) in one only; null if they
     * agree.
     */
    private static String disagreement(SweepPair a, SweepPair b) {
        if (a.heldAt() == null || b.heldAt() == null) {
            return a.heldAt() == null && b.heldAt() == null ? null : "held at no concurrency in one sweep only";
        }
        if (a.notHeldAt() == null || b.notHeldAt() == null) {
            return a.notHeldAt() == null && b.notHeldAt() == null
                    ? null
                    : "held at every concurrency in one sweep only";
        }
        return a.heldAt() < b.notHeldAt() && b.heldAt() < a.notHeldAt()
                ? null
                : String.format(
                        Locale.ROOT,
                        "intervals apart: %,d-%,d and %,d-%,d",
                        a.heldAt(),
                        a.notHeldAt(),
                        b.heldAt(),
                        b.notHeldAt());
    }

    /** -1 when p's interval lies wholly below q's, 1 when wholly above, 0 when they overlap or either has none. */
    private static int below(SweepPair p, SweepPair q) {
        if (p.heldAt() == null || p.notHeldAt() == null || q.heldAt() == null || q.notHeldAt() == null) {
            return 0;
        }
        return p.notHeldAt() <= q.heldAt() ? -1 : q.notHeldAt() <= p.heldAt() ? 1 : 0;
    }
}
