package dev.threadbench.loadtest.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void theLineShowsRequestsRateFailuresAndTimeLeft() {
        String line = Progress.line(new Progress.Snapshot(0, 123_456, 7, 41.2, 0, "measuring"), 9876.4, 10, 41.2);
        assertEquals("measuring      123,456 requests      9,876 req/s over the last 10 s  7 failed  42 s left", line);
        assertTrue(Progress.line(new Progress.Snapshot(0, 0, 0, Double.NaN, 0, "warm-up"), 0, 1, Double.NaN)
                .endsWith("? left"));
    }

    @Test
    void theRateIsOverTheLastTenSecondsSoADelayedWaveDoesNotLiftIt() {
        // 1,000 connections, every 10th request held 2 s: the delayed answers come back in waves, every other
        // second carrying one; one second read alone shows 5,800 req/s against a bound of 5,000.
        Progress.TrailingRate rate = new Progress.TrailingRate();
        long completed = 0;
        double last = rate.add(new Progress.Snapshot(0, completed, 0, Double.NaN, 0, "measuring"));
        assertEquals(0, last);
        for (int second = 1; second <= 14; second++) {
            completed += second % 2 == 0 ? 5_800 : 4_200;
            last = rate.add(new Progress.Snapshot(second * 1_000_000_000L, completed, 0, Double.NaN, 0, "measuring"));
            assertEquals(
                    Math.min(second, Progress.RATE_SECONDS),
                    rate.seconds(),
                    1e-9,
                    "the span grows to 10 s, then slides");
        }
        assertEquals(5_000, last, 1e-9, "ten whole seconds: five whole 2 s periods");
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceElsePrintedNowAndThen() {
        ByteArrayOutputStream tty = new ByteArrayOutputStream();
        Progress.Sink terminal = Progress.Sink.forStream(new PrintStream(tty, true, StandardCharsets.UTF_8), true);
        terminal.update("one");
        terminal.update("two");
        terminal.done();
        assertEquals("\rone\rtwo\r   \r", tty.toString(StandardCharsets.UTF_8));

        ByteArrayOutputStream pipe = new ByteArrayOutputStream();
        Progress.Sink plain = Progress.Sink.forStream(new PrintStream(pipe, true, StandardCharsets.UTF_8), false);
        for (int i = 1; i <= 2 * Progress.PLAIN_EVERY_SECONDS; i++) {
            plain.update("tick " + i);
        }
        assertEquals("tick 10\ntick 20\n", pipe.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }

    @Test
    void aWatchedSinkGetsEachTicksFiguresBesideTheLine() throws InterruptedException {
        List<String> lines = new CopyOnWriteArrayList<>();
        List<Progress.Reading> readings = new CopyOnWriteArrayList<>();
        SecondSeries.Second last = new SecondSeries.Second(3, 1000, 0, 0.2, 2001.0, 2004.0);
        long start = System.nanoTime();
        try (Progress progress = new Progress(
                Progress.Sink.watched(lines::add, readings::add),
                () -> new Progress.Snapshot(
                        System.nanoTime(), (System.nanoTime() - start) / 1_000_000, 0, 5, 0, "measuring"),
                () -> last)) {
            Thread.sleep(2500);
        }
        assertTrue(readings.size() >= 2, "a reading a tick: " + readings);
        assertEquals(lines.size(), readings.size(), "the line and the reading at each tick");
        assertEquals(last, readings.getLast().last());
        assertEquals(1000, readings.getLast().requestsPerSecond(), 50, "the line's rate");
        assertTrue(!Progress.Sink.NONE.watched(), "an unwatched sink: no latency decoded");
    }
}
