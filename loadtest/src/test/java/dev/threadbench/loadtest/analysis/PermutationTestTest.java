package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PermutationTestTest {

    @Test
    void threeRoundsASideCannotShowADifferenceAndFourCan() {
        assertEquals(0.1, PermutationTest.leastP(3, 3), 1e-12, "20 splits, the two fully separated ones");
        assertFalse(PermutationTest.canJudge(3, 3));
        assertEquals(2 / 70.0, PermutationTest.leastP(4, 4), 1e-12);
        assertTrue(PermutationTest.canJudge(4, 4));
        assertEquals(2 / 35.0, PermutationTest.leastP(3, 4), 1e-12);
        assertFalse(PermutationTest.canJudge(3, 4));
        assertTrue(PermutationTest.canJudge(3, 5), "2 / 56");
        assertEquals(1, PermutationTest.leastP(1, 1), 1e-12);
        assertFalse(PermutationTest.canJudge(1, 9), "2 / 10");
    }

    @Test
    void fullySeparatedRoundsGiveTheLeastPAndInterleavedOnesALargeOne() {
        assertEquals(
                2 / 70.0,
                PermutationTest.pValue(new double[] {100, 101, 102, 103}, new double[] {90, 91, 92, 93}),
                1e-12);
        assertEquals(
                2 / 70.0,
                PermutationTest.pValue(new double[] {100, 101, 102, 1e6}, new double[] {90, 91, 92, 93}),
                1e-12,
                "an outlying round counts as any round above the rest");
        assertEquals(2 / 56.0, PermutationTest.pValue(new double[] {1, 2, 3}, new double[] {4, 5, 6, 7, 8}), 1e-12);
        assertEquals(0.1, PermutationTest.pValue(new double[] {100, 101, 102}, new double[] {90, 91, 92}), 1e-12);
        double interleaved =
                PermutationTest.pValue(new double[] {100, 102, 104, 106}, new double[] {101, 103, 105, 107});
        assertTrue(interleaved > 0.5, "p " + interleaved);
        assertEquals(1, PermutationTest.pValue(new double[] {5, 5, 5, 5}, new double[] {5, 5, 5, 5}), 1e-12);
    }

    @Test
    void manyRoundsAreSampledRepeatably() {
        double[] a = new double[12];
        double[] b = new double[12];
        for (int i = 0; i < 12; i++) {
            a[i] = 100 + i % 3;
            b[i] = 103 + i % 3;
        }
        double p = PermutationTest.pValue(a, b);
        assertEquals(p, PermutationTest.pValue(a, b), "a fixed seed");
        assertTrue(p < 1e-4 && p > 0, "p " + p + ": at least 1 / (the splits sampled + 1)");
    }
}
