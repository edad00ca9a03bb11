package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {

    private final AtomicLong now = new AtomicLong();
    private final RateLimitedLog log = new RateLimitedLog(Duration.ofSeconds(10), now::get);

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    @Test
    void theFirstLineOfAClassPassesAndRepeatsWithinTheIntervalAreDropped() {
        assertEquals("boom", log.admit("A", "boom"));
        assertNull(log.admit("A", "boom"));
        advance(Duration.ofSeconds(9));
        assertNull(log.admit("A", "boom again"));
    }

    @Test
    void afterTheIntervalTheNextLineSaysHowManyWereDropped() {
        log.admit("A", "boom");
        for (int i = 0; i < 1000; i++) {
            log.admit("A", "boom");
        }
        advance(Duration.ofSeconds(10));
        assertEquals("boom (1000 more like this in the last 10 s not logged)", log.admit("A", "boom"));
        advance(Duration.ofSeconds(10));
        assertEquals("boom", log.admit("A", "boom"), "nothing was dropped since");
    }

    @Test
    void classesAreLimitedApart() {
        assertEquals("a", log.admit("A", "a"));
        assertEquals("b", log.admit("B", "b"));
        assertNull(log.admit("A", "a"));
        assertNull(log.admit("B", "b"));
    }

    @Test
    void beyondTheTrackedClassesTheRestShareOne() {
        for (int i = 0; i < RateLimitedLog.MAX_CLASSES; i++) {
            assertEquals("line", log.admit("class " + i, "line"));
        }
        assertEquals("first untracked", log.admit("untracked 1", "first untracked"));
        assertNull(log.admit("untracked 2", "second untracked"), "shares the one class of the untracked");
        assertNull(log.admit("class 0", "line"), "a tracked class keeps its own window");
    }
}
