package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    /** Each call to settled() reads the next period's share. */
    private static WarmUp reading(Double... shares) {
        Deque<Double> left = new ArrayDeque<>();
        Arrays.stream(shares).forEach(s -> left.add(s == null ? Double.NaN : s));
        return new WarmUp(() -> {
            Double next = left.poll();
            return next == null || next.isNaN() ? null : next;
        });
    }

    @Test
    void settlesAfterTwoPeriodsInARowUnderTheShare() {
        WarmUp warmUp = reading(0.40, 0.02, 0.05, 0.01, 0.029);
        assertFalse(warmUp.settled(), "40 %");
        assertFalse(warmUp.settled(), "one period under is not enough");
        assertFalse(warmUp.settled(), "5 % breaks the run");
        assertFalse(warmUp.settled());
        assertTrue(warmUp.settled(), "1 % then 2.9 %");
        assertFalse(warmUp.capped());
        assertNull(warmUp.capNote());
        assertEquals(
                "warm-up 10 s: the JIT's share of the server's CPU per 2 s period 40 %, 2.0 %, 5.0 %, 1.0 %, 2.9 %"
                        + " (settled: 2 under 3.0 %)",
                warmUp.line(10));
    }

    @Test
    void failsClosedWhenThePeriodIsNotRead() {
        WarmUp warmUp = reading(0.01, null, 0.01, null);
        for (int i = 0; i < 4; i++) {
            assertFalse(warmUp.settled(), "a period not read is not under the share");
        }
        assertTrue(warmUp.capped());
        assertEquals(
                "warm-up capped: the JIT's share of the server's CPU per 2 s period 1.0 %, not read, 1.0 %, not read"
                        + " (the cap: not 2 periods in a row under 3.0 %)",
                warmUp.capNote());
    }

    @Test
    void theShareIsRelativeNotMillisecondsASecond() {
        WarmUp atTheLine = reading(0.03, 0.03);
        atTheLine.settled();
        assertFalse(atTheLine.settled(), "3 % is not under 3 %");
    }
}
