package dev.threadbench.loadtest.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.threadbench.loadtest.runner.SecondSeries;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HdrLogTest {

    @TempDir
    Path dir;

    @Test
    void eachSecondIsAnIntervalTaggedWithItsPhase() {
        assertEquals(
                List.of("rampup", "rampup", "warmup", "measure", "measure", "drain"),
                List.of(0, 1, 2, 3, 4, 5).stream()
                        .map(s -> HdrLog.phase(s, 2, 2.9, 5.2))
                        .toList());
    }

    /** Seconds 0-5: ramp-up 1 s, warm-up to 2.0 s, measured 2.0-5.0 s; each second's latencies 1,000 x its number. */
    @Test
    void theMeasuredIntervalsReadBackGiveTheWindowsPercentiles() throws Exception {
        List<String> encoded = new ArrayList<>();
        Histogram window = new Histogram(1, 3_600_000_000L, 2);
        for (int s = 0; s < 6; s++) {
            Histogram second = new Histogram(1, 3_600_000_000L, 2);
            for (int i = 1; i <= 100; i++) {
                second.recordValue(1000L * (s + 1) + i * 10L);
            }
            if (s >= 2 && s < 5) {
                window.add(second);
            }
            ByteBuffer buffer = ByteBuffer.allocate(second.getNeededByteBufferCapacity());
            int length = second.encodeIntoCompressedByteBuffer(buffer);
            encoded.add(Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
        }
        encoded.set(1, null);
        Path file = dir.resolve("hlog/undertow-blocking-4.hlog");
        HdrLog.write(file, new SecondSeries(2.0, 5.0, encoded, null), 1, "a test");

        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        Histogram measured = new Histogram(1, 3_600_000_000L, 2);
        List<String> tags = new ArrayList<>();
        for (EncodableHistogram interval = reader.nextIntervalHistogram();
                interval != null;
                interval = reader.nextIntervalHistogram()) {
            tags.add(interval.getTag());
            if ("measure".equals(interval.getTag())) {
                measured.add((Histogram) interval);
            }
        }
        assertEquals(
                List.of("rampup", "measure", "measure", "measure", "drain"), tags, "second 1 (warm-up) had no request");
        assertEquals(300, measured.getTotalCount());
        assertEquals(window.getValueAtPercentile(99), measured.getValueAtPercentile(99));
    }
}
