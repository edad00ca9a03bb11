package dev.threadbench.loadtest.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HolmTest {

    @Test
    void theSmallestPIsMultipliedByAllTestsTheNextByOneFewerAndNoneFallsBelowTheOneBefore() {
        assertArrayEquals(new double[] {0.03, 0.06, 0.06}, Holm.adjust(new double[] {0.01, 0.04, 0.03}), 1e-12);
        assertArrayEquals(new double[] {0.9, 0.004}, Holm.adjust(new double[] {0.9, 0.002}), 1e-12);
        assertArrayEquals(new double[0], Holm.adjust(new double[0]), 1e-12);
    }

    @Test
    void theRoundsNeededGrowWithTheTests() {
        assertEquals(4, Holm.roundsNeeded(1), "2 / 70 = 0.029");
        assertEquals(5, Holm.roundsNeeded(6), "2 / 252 = 0.0079 <= 0.05 / 6");
        assertEquals(6, Holm.roundsNeeded(12), "the default run: 2 / 924 = 0.0022 <= 0.05 / 12; 5 give 0.0079");
    }
}
