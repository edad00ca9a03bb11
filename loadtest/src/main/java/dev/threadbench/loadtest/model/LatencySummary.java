package dev.threadbench.loadtest.model;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** Latency statistics in milliseconds, from a histogram recorded in microseconds. */
public record LatencySummary(
        long count,
        double mean,
        double sampleStdDev,
        double p50,
        double p90,
        double p99,
        double p995,
        double p999,
        double max) {

    /** One point of the percentile curve: {@code percentile} in 0..100, latency in ms. */
    public record Point(double percentile, double latencyMs) {}

    public static LatencySummary of(Histogram micros) {
        long n = micros.getTotalCount();
        if (n == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        double populationStdDev = micros.getStdDeviation();
        double sample = n > 1 ? populationStdDev * Math.sqrt((double) n / (n - 1)) : 0;
        return new LatencySummary(
                n,
                ms(micros.getMean()),
                ms(sample),
                ms(micros.getValueAtPercentile(50)),
                ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)),
                ms(micros.getValueAtPercentile(99.5)),
                ms(micros.getValueAtPercentile(99.9)),
                ms(micros.getMaxValue()));
    }

    /**
     * The percentile distribution, as HdrHistogram prints it: denser towards the tail (5 steps per halving
     * of the distance to 100%), so a chart can draw the curve from the median to the maximum.
     */
    public static List<Point> curve(Histogram micros) {
        List<Point> points = new ArrayList<>();
        if (micros.getTotalCount() == 0) {
            return points;
        }
        for (HistogramIterationValue v : micros.percentiles(5)) {
            double percentile = v.getPercentileLevelIteratedTo();
            double latency = ms(micros.highestEquivalentValue(v.getValueIteratedTo()));
            if (!points.isEmpty() && points.getLast().percentile() == percentile) {
                continue;
            }
            points.add(new Point(round(percentile, 6), latency));
            if (percentile >= 100) {
                break;
            }
        }
        return points;
    }

    private static double ms(double micros) {
        return round(micros / 1000.0, 3);
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
