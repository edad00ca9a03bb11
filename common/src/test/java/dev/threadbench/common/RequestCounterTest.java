package dev.threadbench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.common.RequestCounter.Pace;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RequestCounterTest {

    @Test
    void delaysExactlyEveryTenthInOrder() {
        RequestCounter counter = new RequestCounter(10);
        for (int i = 1; i <= 30; i++) {
            assertEquals(i % 10 == 0 ? Pace.DELAYED : Pace.FAST, counter.next(), "request " + i);
        }
        assertEquals(3, counter.delayedAmong(counter.requests()));
    }

    @Test
    void zeroTurnsTheDelayOff() {
        RequestCounter counter = new RequestCounter(0);
        for (int i = 0; i < 100; i++) {
            assertEquals(Pace.FAST, counter.next());
        }
        assertEquals(0, counter.delayedAmong(counter.requests()));
    }

    @Test
    void everyOneDelaysAll() {
        RequestCounter counter = new RequestCounter(1);
        assertEquals(Pace.DELAYED, counter.next());
        assertEquals(Pace.DELAYED, counter.next());
    }

    @Test
    void exactUnderConcurrency() throws Exception {
        RequestCounter counter = new RequestCounter(10);
        AtomicInteger delayed = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            for (int i = 0; i < 10_000; i++) {
                pool.execute(() -> {
                    if (counter.next() == Pace.DELAYED) {
                        delayed.incrementAndGet();
                    }
                });
            }
        }
        assertEquals(10_000, counter.requests());
        assertEquals(1_000, delayed.get());
        assertEquals(1_000, counter.delayedAmong(counter.requests()));
    }
}
