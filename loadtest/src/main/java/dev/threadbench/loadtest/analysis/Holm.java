package dev.threadbench.loadtest.analysis;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down correction: many figures of many cells tested at 5 % each would name about one difference per
 * report by chance alone; Holm keeps the chance of naming any false one at most 5 % over all of them (family-wise),
 * without assuming the tests independent, and is uniformly more powerful than Bonferroni.
 */
public final class Holm {

    private Holm() {}

    /**
     * The adjusted p of each of {@code p}, in their order: sorted ascending, the i-th (from 0) of N is multiplied by
     * N - i, kept at least as large as the one before it and at most 1. A test is significant at family-wise level
     * alpha when its adjusted p is at most alpha.
     */
    public static double[] adjust(double[] p) {
        int n = p.length;
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
        double[] adjusted = new double[n];
        double running = 0;
        for (int rank = 0; rank < n; rank++) {
            int i = order[rank];
            running = Math.max(running, Math.min(1, (n - rank) * p[i]));
            adjusted[i] = running;
        }
        return adjusted;
    }

    /**
     * Whether {@code n} against {@code m} rounds can name a difference at all among {@code tests}: only when the
     * smallest p they can give passes the first of Holm's thresholds, alpha / tests.
     */
    public static boolean reachable(int n, int m, int tests) {
        return RankSum.leastP(n, m) * tests <= RankSum.ALPHA;
    }

    /** The fewest rounds a side whose smallest p passes alpha / {@code tests}: 4 for one test, 6 for 12. */
    public static int roundsNeeded(int tests) {
        int rounds = 2;
        while (!reachable(rounds, rounds, tests)) {
            rounds++;
        }
        return rounds;
    }
}
