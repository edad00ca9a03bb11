package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RankSumTest {

    @Test
    void threeRoundsASideCannotShowADifferenceAndFourCan() {
        assertEquals(0.1, RankSum.leastP(3, 3), 1e-12, "20 splits, the two fully separated ones");
        assertFalse(RankSum.canJudge(3, 3));
        assertEquals(2 / 70.0, RankSum.leastP(4, 4), 1e-12);
        assertTrue(RankSum.canJudge(4, 4));
        assertEquals(2 / 35.0, RankSum.leastP(3, 4), 1e-12);
        assertFalse(RankSum.canJudge(3, 4));
        assertTrue(RankSum.canJudge(3, 5), "2 / 56");
        assertEquals(1, RankSum.leastP(1, 1), 1e-12);
        assertFalse(RankSum.canJudge(1, 9), "2 / 10");
    }

    @Test
    void fullySeparatedRoundsGiveTheLeastPAndInterleavedOnesALargeOne() {
        assertEquals(2 / 70.0, RankSum.pValue(new double[] {100, 101, 102, 103}, new double[] {90, 91, 92, 93}), 1e-12);
        assertEquals(
                2 / 70.0,
                RankSum.pValue(new double[] {100, 101, 102, 1e6}, new double[] {90, 91, 92, 93}),
                1e-12,
                "an outlying round counts as any round above the rest");
        assertEquals(2 / 56.0, RankSum.pValue(new double[] {1, 2, 3}, new double[] {4, 5, 6, 7, 8}), 1e-12);
        assertEquals(0.1, RankSum.pValue(new double[] {100, 101, 102}, new double[] {90, 91, 92}), 1e-12);
        double interleaved = RankSum.pValue(new double[] {100, 102, 104, 106}, new double[] {101, 103, 105, 107});
        assertTrue(interleaved > 0.5, "p " + interleaved);
        assertEquals(1, RankSum.pValue(new double[] {5, 5, 5, 5}, new double[] {5, 5, 5, 5}), 1e-12);
    }

    @Test
    void manyRoundsAreSampledRepeatably() {
        double[] a = new double[12];
        double[] b = new double[12];
        for (int i = 0; i < 12; i++) {
            a[i] = 100 + i % 3;
            b[i] = 103 + i % 3;
        }
        double p = RankSum.pValue(a, b);
        assertEquals(p, RankSum.pValue(a, b), "a fixed seed");
        assertTrue(p < 1e-4 && p > 0, "p " + p + ": at least 1 / (the splits sampled + 1)");
    }

    /**
     * The sampled path against every split counted, on rounds that interleave (p far from its least, where a sampling
     * or a counting error shows): 8 + 8 rounds, 12,870 splits, both paths run on the same data.
     */
    @Test
    void theSampledPathAgreesWithExactEnumerationOnRoundsThatInterleave() {
        double[][][] cases = {
            {{10, 12, 13, 15, 18, 19, 22, 25}, {11, 14, 16, 17, 20, 21, 23, 24}},
            {{10, 11, 12, 14, 15, 17, 19, 20}, {13, 16, 18, 21, 22, 23, 24, 26}},
            {{30, 31, 31, 33, 40, 41, 44, 45}, {32, 33, 34, 35, 36, 37, 38, 50}}
        };
        for (double[][] c : cases) {
            double exact = RankSum.exactPValue(c[0], c[1]);
            double sampled = RankSum.sampledPValue(c[0], c[1]);
            assertTrue(exact > 0.01 && exact < 0.99, "not separated: exact p " + exact);
            // 200,000 splits sampled: a standard error of at most 0.0011; 0.005 is over four of them
            assertEquals(exact, sampled, 0.005, "sampled against exact");
        }
    }

    /**
     * 11 + 11 rounds take the sampled path (705,432 splits); the exact p comes from the rank-sum's distribution
     * counted by dynamic programming (distinct values: no ties), a count that shares no code with the test.
     */
    @Test
    void elevenRoundsASideAreSampledCloseToTheExactRankSumDistribution() {
        double[] a = {1, 3, 4, 7, 9, 10, 13, 15, 16, 19, 21};
        double[] b = {2, 5, 6, 8, 11, 12, 14, 17, 18, 20, 22};
        double[] c = {1, 2, 3, 5, 6, 8, 9, 11, 14, 17, 20};
        double[] d = {4, 7, 10, 12, 13, 15, 16, 18, 19, 21, 22};
        for (double[][] pair : new double[][][] {{a, b}, {c, d}}) {
            double exact = exactByRankSums(pair[0], pair[1]);
            assertEquals(exact, RankSum.pValue(pair[0], pair[1]), 0.005, "exact " + exact);
        }
    }

    /** Two-sided p of the rank-sum of {@code a} among a and b (distinct values): subsets of n ranks counted by sum. */
    private static double exactByRankSums(double[] a, double[] b) {
        int n = a.length;
        int total = n + b.length;
        double[] pooled = new double[total];
        System.arraycopy(a, 0, pooled, 0, n);
        System.arraycopy(b, 0, pooled, n, b.length);
        double[] sorted = pooled.clone();
        java.util.Arrays.sort(sorted);
        int observed = 0;
        for (double x : a) {
            observed += java.util.Arrays.binarySearch(sorted, x) + 1;
        }
        int maxSum = total * (total + 1) / 2;
        double[][] ways = new double[n + 1][maxSum + 1];
        ways[0][0] = 1;
        for (int rank = 1; rank <= total; rank++) {
            for (int k = Math.min(rank, n); k >= 1; k--) {
                for (int sum = maxSum; sum >= rank; sum--) {
                    ways[k][sum] += ways[k - 1][sum - rank];
                }
            }
        }
        double middle = n * (total + 1) / 2.0;
        double far = Math.abs(observed - middle);
        double all = 0;
        double asFar = 0;
        for (int sum = 0; sum <= maxSum; sum++) {
            all += ways[n][sum];
            if (Math.abs(sum - middle) >= far - 1e-9) {
                asFar += ways[n][sum];
            }
        }
        return asFar / all;
    }
}
