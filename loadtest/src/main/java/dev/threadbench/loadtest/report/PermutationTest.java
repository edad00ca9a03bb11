package dev.threadbench.loadtest.report;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Whether two sets of rounds differ: an exact two-sided permutation test on the difference of their medians. Under "no
 * difference" the rounds are exchangeable, so every split of the pooled rounds into two groups of the original sizes is as
 * likely as the one observed; p is the share of splits whose medians are at least as far apart. It assumes nothing about
 * the figures' distribution (latency percentiles and CPU per request are skewed, a round can be an outlier), and it is
 * exact for the few rounds a run has. Its limit is plain too: with n and m rounds there are C(n+m, n) splits, so p can be
 * no smaller than 2 / C(n+m, n) (1 / C when n != m), and below {@link #ALPHA} no difference can be shown at all: 3 rounds
 * against 3 give 20 splits and p >= 0.10, 4 against 4 give 70 and p >= 0.029. Such runs are "too few rounds to judge".
 */
public final class PermutationTest {

    /** The significance level: a difference is named at p <= 0.05. */
    public static final double ALPHA = 0.05;
    /** Up to this many splits are all counted; past it, this many random ones (a fixed seed, so a verdict is repeatable). */
    static final int EXACT_SPLITS = 200_000;

    private PermutationTest() {}

    /** The smallest p the test can give with {@code n} and {@code m} rounds, whatever their values. */
    public static double leastP(int n, int m) {
        if (n == 0 || m == 0) {
            return 1;
        }
        return Math.min(1, (n == m ? 2 : 1) / binomial(n + m, n));
    }

    /** Whether {@code n} and {@code m} rounds can show a difference at {@link #ALPHA}. */
    public static boolean canJudge(int n, int m) {
        return leastP(n, m) <= ALPHA;
    }

    /** The two-sided p of the observed difference of medians between {@code a} and {@code b}. */
    public static double pValue(double[] a, double[] b) {
        int n = a.length;
        int total = n + b.length;
        if (n == 0 || b.length == 0) {
            return 1;
        }
        double[] pooled = new double[total];
        System.arraycopy(a, 0, pooled, 0, n);
        System.arraycopy(b, 0, pooled, n, b.length);
        double observed = Math.abs(median(a) - median(b));
        // a split as far apart as the observed one, up to rounding in the medians' arithmetic
        double tolerance = 1e-9 * Math.max(1, Arrays.stream(pooled).map(Math::abs).max().orElse(1));
        double splits = binomial(total, n);
        if (splits <= EXACT_SPLITS) {
            long[] counts = new long[2];
            enumerate(pooled, new int[n], 0, 0, observed - tolerance, counts);
            return (double) counts[1] / counts[0];
        }
        SplittableRandom random = new SplittableRandom(35);
        int[] indices = new int[total];
        long asFar = 0;
        for (int s = 0; s < EXACT_SPLITS; s++) {
            for (int i = 0; i < total; i++) {
                indices[i] = i;
            }
            for (int i = 0; i < n; i++) {
                int j = i + random.nextInt(total - i);
                int t = indices[i];
                indices[i] = indices[j];
                indices[j] = t;
            }
            if (statistic(pooled, Arrays.copyOf(indices, n)) >= observed - tolerance) {
                asFar++;
            }
        }
        return (asFar + 1.0) / (EXACT_SPLITS + 1.0);
    }

    /** Every choice of {@code chosen.length} indices of {@code pooled} for the first group: counts[0] splits, counts[1] as far. */
    private static void enumerate(double[] pooled, int[] chosen, int depth, int from, double threshold, long[] counts) {
        if (depth == chosen.length) {
            counts[0]++;
            if (statistic(pooled, chosen) >= threshold) {
                counts[1]++;
            }
            return;
        }
        for (int i = from; i <= pooled.length - (chosen.length - depth); i++) {
            chosen[depth] = i;
            enumerate(pooled, chosen, depth + 1, i + 1, threshold, counts);
        }
    }

    /** |median(first group) - median(the rest)| for the first group's indices (ascending or not). */
    private static double statistic(double[] pooled, int[] first) {
        boolean[] inFirst = new boolean[pooled.length];
        for (int i : first) {
            inFirst[i] = true;
        }
        double[] x = new double[first.length];
        double[] y = new double[pooled.length - first.length];
        int xi = 0;
        int yi = 0;
        for (int i = 0; i < pooled.length; i++) {
            if (inFirst[i]) {
                x[xi++] = pooled[i];
            } else {
                y[yi++] = pooled[i];
            }
        }
        return Math.abs(median(x) - median(y));
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double binomial(int n, int k) {
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return result;
    }
}
