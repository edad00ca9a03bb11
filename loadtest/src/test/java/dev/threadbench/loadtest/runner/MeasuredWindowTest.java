package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A warm-up of steps: it ends at the first whole step the caller says it may, or at the cap, and the window follows it.
 */
class MeasuredWindowTest {

    /** Phases that say "warmed up" from the {@code readyAt}-th question on, and count down when the window ends. */
    private static final class Phases implements LoadRunner.Phases {
        final AtomicInteger asked = new AtomicInteger();
        final CountDownLatch ended = new CountDownLatch(1);
        final int readyAt;

        Phases(int readyAt) {
            this.readyAt = readyAt;
        }

        @Override
        public boolean warmedUp() {
            return asked.incrementAndGet() >= readyAt;
        }

        @Override
        public void measureEnded() {
            ended.countDown();
        }
    }

    private static MeasuredWindow run(Phases phases, long capMs) throws InterruptedException {
        MeasuredWindow window = new MeasuredWindow(
                new LoadShape.Timed(Duration.ofMillis(capMs), Duration.ofMillis(100), Duration.ofMillis(100)),
                Duration.ofMillis(100),
                phases);
        window.open();
        assertTrue(Double.isNaN(window.secondsLeft(System.nanoTime())), "no end known while warming up");
        assertEquals("warm-up", window.phase(System.nanoTime()));
        assertTrue(phases.ended.await(10, TimeUnit.SECONDS), "the window ended");
        window.finish(System.nanoTime());
        window.close();
        return window;
    }

    @Test
    void theWarmUpEndsAtTheFirstWholeStepTheCallerSaysItMay() throws InterruptedException {
        // ramp-up 0.1 s; asked first one step past it (0.2 s), then at 0.3 s; ready at the third question, 0.4 s
        Phases phases = new Phases(3);
        MeasuredWindow window = run(phases, 2000);
        assertEquals(3, phases.asked.get());
        assertEquals(0.4, window.measureStartSecond(), 1e-9);
        assertEquals(0.5, window.measureEndSecond(), 1e-9, "then the window's 0.1 s");
        assertEquals(0.1, window.seconds(), 1e-9);
    }

    @Test
    void aCallerThatNeverSaysSoIsEndedAtTheCapRoundedUpToAWholeStep() throws InterruptedException {
        Phases never = new Phases(Integer.MAX_VALUE);
        // the cap: 0.1 s ramp-up + 0.25 s, rounded up to 0.4 s; asked at 0.2, 0.3 and, at the cap, 0.4 s
        MeasuredWindow window = run(never, 250);
        assertEquals(0.4, window.measureStartSecond(), 1e-9);
        assertEquals(3, never.asked.get());
    }
}
