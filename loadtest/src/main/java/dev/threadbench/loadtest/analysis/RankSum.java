package dev.threadbench.loadtest.analysis;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Whether two sets of rounds differ: the exact two-sided permutation test of the Mann-Whitney (rank-sum) statistic.
 * Under "no difference" the rounds are exchangeable, so every split of the pooled rounds into two groups of the
 * original sizes is as likely as the one observed; p is the share of splits whose U (the pairs in which the first
 * group's round is the higher, ties counting half) is at least as far from its middle, n m / 2, as the observed one. It
 * assumes nothing about the figures' distribution (latency percentiles and CPU per request are skewed) and one outlying
 * round moves it no more than any other round above or below the rest; it is exact for the few rounds a run has. Its
 * limit is plain too: with n and m rounds there are C(n+m, n) splits and the two fully separated ones are the most
 * extreme, so p can be no smaller than 2 / C(n+m, n), and where that is above {@link #ALPHA} no difference can be shown
 * at all: 3 rounds against 3 give 20 splits and p >= 0.10, 3 against 4 give p >= 0.057, 4 against 4 give 70 splits and
 * p >= 0.029. Such runs are "too few rounds to judge". (The difference of medians as the statistic would tie many
 * splits with the separated ones: 4 against 4 could then not go below 0.057.)
 */
public final class RankSum {

    /** The significance level: a difference is named at p <= 0.05. */
    public static final double ALPHA = 0.05;
    /**
     * Up to this many splits are all counted; past it, this many random ones (a fixed seed, so a verdict is
     * repeatable).
     */
    static final int EXACT_SPLITS = 200_000;

    private RankSum() {}

    /** The smallest p the test can give with {@code n} and {@code m} rounds, whatever their values. */
    public static double leastP(int n, int m) {
        if (n == 0 || m == 0) {
            return 1;
        }
        return Math.min(1, 2 / binomial(n + m, n));
    }

    /** Whether {@code n} and {@code m} rounds can show a difference at {@link #ALPHA}. */
    public static boolean canJudge(int n, int m) {
        return leastP(n, m) <= ALPHA;
    }

    /** The two-sided p of the rank-sum statistic of {@code a} against {@code b}. */
    public static double pValue(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            return 1;
        }
        return binomial(a.length + b.length, a.length) <= EXACT_SPLITS ? exactPValue(a, b) : sampledPValue(a, b);
    }

    /** Every split counted. */
    static double exactPValue(double[] a, double[] b) {
        double[] pooled = pooled(a, b);
        long[] counts = new long[2];
        enumerate(pooled, new int[a.length], 0, 0, observed(pooled, a.length) - TOLERANCE, counts);
        return (double) counts[1] / counts[0];
    }

    /** {@link #EXACT_SPLITS} random splits, the observed one counted among them (a fixed seed: repeatable). */
    static double sampledPValue(double[] a, double[] b) {
        double[] pooled = pooled(a, b);
        int n = a.length;
        int total = pooled.length;
        double threshold = observed(pooled, n) - TOLERANCE;
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
            if (statistic(pooled, Arrays.copyOf(indices, n)) >= threshold) {
                asFar++;
            }
        }
        return (asFar + 1.0) / (EXACT_SPLITS + 1.0);
    }

    /** U is a multiple of 0.5: splits within this of the observed one are as far. */
    private static final double TOLERANCE = 1e-9;

    private static double[] pooled(double[] a, double[] b) {
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        return pooled;
    }

    private static double observed(double[] pooled, int n) {
        int[] first = new int[n];
        for (int i = 0; i < n; i++) {
            first[i] = i;
        }
        return statistic(pooled, first);
    }

    /**
     * Every choice of {@code chosen.length} indices of {@code pooled} for the first group: counts[0] splits, counts[1]
     * as far.
     */
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

    /**
     * |U - n m / 2| for the first group's indices: U counts the pairs (first, rest) with the first higher, ties as
     * half.
     */
    private static double statistic(double[] pooled, int[] first) {
        boolean[] inFirst = new boolean[pooled.length];
        for (int i : first) {
            inFirst[i] = true;
        }
        double u = 0;
        for (int i : first) {
            for (int j = 0; j < pooled.length; j++) {
                if (!inFirst[j]) {
                    u += pooled[i] > pooled[j] ? 1 : pooled[i] == pooled[j] ? 0.5 : 0;
                }
            }
        }
        return Math.abs(u - first.length * (pooled.length - first.length) / 2.0);
    }

    private static double binomial(int n, int k) {
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return result;
    }
}
