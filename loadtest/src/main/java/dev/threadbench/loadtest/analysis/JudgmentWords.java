package dev.threadbench.loadtest.analysis;

import dev.threadbench.loadtest.model.Spread;
import java.util.Locale;

/** A tested figure of the verdict in words: what it tested, what it found, and what it could have found. */
final class JudgmentWords {

    private JudgmentWords() {}

    /** The two sides' labels and rounds. */
    record Sides(String firstLabel, String secondLabel, double[] first, double[] second) {}

    /**
     * One figure of one pair as tested: {@code word} is what the lower side has ("more" req/s, "less" CPU), {@code
     * shares} what the request CPU leaves out (or "").
     */
    record Tested(String pair, String figure, String word, Spread first, Spread second, Sides sides, String shares) {

        Verdict.Judgment judgment(
                Verdict.Outcome outcome, String named, double percent, Test test, Double detectable, String words) {
            return new Verdict.Judgment(
                    pair,
                    figure,
                    first,
                    second,
                    outcome,
                    named,
                    percent,
                    test.p(),
                    test.adjusted(),
                    test.tests(),
                    detectable,
                    words);
        }
    }

    /** The rank-sum test's p, Holm's adjusted p, and how many tests Holm corrected over. */
    record Test(double p, double adjusted, int tests) {}

    static Verdict.Judgment judged(Tested t, Test test) {
        int n = t.sides().first().length;
        int m = t.sides().second().length;
        boolean more = t.word().equals("more");
        double percent = percentApart(t.first().median(), t.second().median(), more);
        if (!Holm.reachable(n, m, test.tests())) {
            String words = String.format(
                    Locale.ROOT,
                    "too few rounds to name a difference at 5 %% over %d tests: need %d rounds a side (%d vs %d give p"
                            + " >= %s; medians %.1f %% apart%s)",
                    test.tests(),
                    Holm.roundsNeeded(test.tests()),
                    n,
                    m,
                    number(RankSum.leastP(n, m)),
                    percent,
                    t.shares());
            return t.judgment(Verdict.Outcome.TOO_FEW_ROUNDS, null, percent, test, null, words);
        }
        String method = String.format(
                Locale.ROOT,
                "rank-sum over %d vs %d rounds, Holm over %d tests: p = %s, adjusted %s",
                n,
                m,
                test.tests(),
                number(test.p()),
                number(test.adjusted()));
        Double detectable = detectable(t.first(), t.second());
        if (test.adjusted() <= RankSum.ALPHA && percent >= Verdict.NAMEABLE_PERCENT) {
            boolean firstNamed = more == t.first().median() > t.second().median();
            String named = firstNamed ? t.sides().firstLabel() : t.sides().secondLabel();
            String words = String.format(
                    Locale.ROOT,
                    more ? "%s %.1f %% %s (%s%s)" : "%s %.0f %% %s (%s%s)",
                    named,
                    percent,
                    t.word(),
                    method,
                    t.shares());
            return t.judgment(Verdict.Outcome.DIFFERENT, named, percent, test, detectable, words);
        }
        String words = test.adjusted() <= RankSum.ALPHA
                ? String.format(
                        Locale.ROOT,
                        "no difference worth naming (%.2f %% apart, under %.0f %%; %s%s)",
                        percent,
                        Verdict.NAMEABLE_PERCENT,
                        method,
                        t.shares())
                : String.format(
                        Locale.ROOT,
                        "no difference (%s; %s%s)",
                        method,
                        detectable == null
                                ? "no size it could have named"
                                : String.format(
                                        Locale.ROOT, "these rounds could have named about %.1f %% or more", detectable),
                        t.shares());
        return t.judgment(Verdict.Outcome.NO_DIFFERENCE, null, percent, test, detectable, words);
    }

    /** The medians' distance: relative to the smaller for "more" (req/s), to the larger for "less". */
    static double percentApart(double x, double y, boolean more) {
        double low = Math.min(x, y);
        double high = Math.max(x, y);
        if (high == low) {
            return 0;
        }
        if (more) {
            return low <= 0 ? 100 : 100 * (high / low - 1);
        }
        return high <= 0 ? 0 : 100 * (1 - low / high);
    }

    /**
     * The smallest difference of medians, in % of the smaller, at which these rounds, one side shifted against the
     * other, would no longer overlap in either direction: the least p they can give (the rank-sum test's smallest p
     * is that of ranges apart). At least the 1 % floor; null when a median is not positive.
     */
    static Double detectable(Spread first, Spread second) {
        double low = Math.min(first.median(), second.median());
        if (low <= 0) {
            return null;
        }
        double up = (first.max() - first.median()) + (second.median() - second.min());
        double down = (first.median() - first.min()) + (second.max() - second.median());
        return Math.max(Verdict.NAMEABLE_PERCENT, 100 * Math.max(up, down) / low);
    }

    /** 0.1, 0.0022, 1.0: two significant digits. */
    static String number(double p) {
        return String.format(Locale.ROOT, "%.2g", p);
    }
}
