package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The open model's schedule, driven by made-up times: nothing sleeps. */
class ArrivalScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    /** Takes every request due at {@code now}, as the runner does with free connections: how many. */
    private static int takeDue(ArrivalSchedule schedule, long now) {
        int taken = 0;
        while (schedule.due(now)) {
            long intended = schedule.take();
            assertTrue(intended <= now, "a request is never sent before its intended time");
            taken++;
        }
        return taken;
    }

    @Test
    void theKthRequestIsIntendedAtStartPlusKOverTheRate() {
        ArrivalSchedule schedule = new ArrivalSchedule(1_000, 4, 0, 1, Long.MAX_VALUE);
        assertEquals(1_000, schedule.intendedNanos(0));
        assertEquals(1_000 + SECOND / 4, schedule.intendedNanos(1));
        assertEquals(1_000 + 10 * SECOND, schedule.intendedNanos(40));
    }

    @Test
    void aLongRunDoesNotDrift() {
        // 3 per second: 333,333,333.33 ns apart, an interval no whole number of nanoseconds adds up to
        ArrivalSchedule schedule = new ArrivalSchedule(0, 3, 0, 1, Long.MAX_VALUE);
        long tenDays = 10L * 24 * 3600;
        assertEquals(tenDays * SECOND, schedule.intendedNanos(3 * tenDays));
        assertEquals(tenDays * SECOND + SECOND / 3, schedule.intendedNanos(3 * tenDays + 1), 1.0);
        // stepping the clock in odd increments hands out exactly the requests whose time has come
        long taken = 0;
        for (long now = 0; now < 3_600 * SECOND; now += 7_777_777) {
            taken += takeDue(schedule, now);
            assertEquals((long) Math.floor(now * 3.0 / SECOND) + 1, taken, "at " + now);
        }
    }

    @Test
    void behindScheduleTheDueRequestsAreHandedOutAtOnceButNoMore() {
        ArrivalSchedule schedule = new ArrivalSchedule(0, 1_000, 0, 1, Long.MAX_VALUE);
        assertEquals(1, takeDue(schedule, 0));
        // the sender stalls 2 s: the 2,000 requests due meanwhile are all still due, late, not skipped
        assertEquals(2_000, takeDue(schedule, 2 * SECOND));
        // then no burst beyond the schedule: the next waits for its own time
        assertEquals(2 * SECOND + SECOND / 1_000, schedule.peek());
        assertEquals(0, takeDue(schedule, 2 * SECOND + SECOND / 1_000 - 1));
        assertEquals(1, takeDue(schedule, 2 * SECOND + SECOND / 1_000));
    }

    @Test
    void strideSharesInterleaveIntoOneEvenSchedule() {
        ArrivalSchedule first = new ArrivalSchedule(0, 100, 0, 2, Long.MAX_VALUE);
        ArrivalSchedule second = new ArrivalSchedule(0, 100, 1, 2, Long.MAX_VALUE);
        for (int k = 0; k < 50; k++) {
            assertEquals(2L * k * SECOND / 100, first.intendedNanos(k));
            assertEquals((2L * k + 1) * SECOND / 100, second.intendedNanos(k));
        }
        assertEquals(100, takeDue(first, SECOND - 1) + takeDue(second, SECOND - 1), "100 per second in all");
    }

    @Test
    void nothingIsIntendedAtOrAfterTheEnd() {
        ArrivalSchedule schedule = new ArrivalSchedule(0, 10, 0, 1, SECOND);
        assertEquals(10, takeDue(schedule, 5 * SECOND));
        assertTrue(schedule.finished());
        assertFalse(schedule.due(Long.MAX_VALUE));
    }

    @Test
    void refusesARateThatIsNotPositive() {
        assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(0, 0, 0, 1, SECOND));
        assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(0, Double.NaN, 0, 1, SECOND));
        assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(0, 10, 2, 2, SECOND));
    }
}
