package dev.threadbench.loadtest.compare;

import dev.threadbench.loadtest.runner.SecondSeries;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A run's latency as an HdrHistogram log ({@code .hlog}): one interval per second of the load, from the histograms
 * the runner already keeps per second (no cost per request), in microseconds, each tagged with its phase: {@code
 * rampup}, {@code warmup}, {@code measure} or {@code drain}, by where the middle of its second falls. Interval times
 * count from the load's start. HdrHistogram's own tools read it (docs/metrics.md).
 */
final class HdrLog {

    static final String RAMPUP = "rampup";
    static final String WARMUP = "warmup";
    static final String MEASURE = "measure";
    static final String DRAIN = "drain";

    private HdrLog() {}

    /** The phase of the second that starts {@code second} s after the load's start. */
    static String phase(int second, double rampupSeconds, double measureStartSecond, double measureEndSecond) {
        double middle = second + 0.5;
        if (middle < rampupSeconds) {
            return RAMPUP;
        }
        if (middle < measureStartSecond) {
            return WARMUP;
        }
        return middle < measureEndSecond ? MEASURE : DRAIN;
    }

    /** Writes {@code seconds} to {@code file}; {@code rampupSeconds} tells ramp-up from warm-up. */
    static void write(Path file, SecondSeries seconds, double rampupSeconds, String comment) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, "UTF-8")) {
                HistogramLogWriter log = new HistogramLogWriter(out);
                log.outputComment(comment);
                log.outputComment("values in microseconds; interval times in seconds since the load started");
                log.outputBaseTime(0);
                log.outputLegend();
                List<Histogram> histograms = seconds.decoded();
                for (int s = 0; s < histograms.size(); s++) {
                    Histogram second = histograms.get(s);
                    if (second == null) {
                        continue;
                    }
                    second.setStartTimeStamp(s * 1000L);
                    second.setEndTimeStamp((s + 1) * 1000L);
                    second.setTag(phase(s, rampupSeconds, seconds.measureStartSecond(), seconds.measureEndSecond()));
                    log.outputIntervalHistogram(second);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
