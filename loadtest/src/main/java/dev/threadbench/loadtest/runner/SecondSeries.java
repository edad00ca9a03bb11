package dev.threadbench.loadtest.runner;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * A load second by second since its start: each second's latency histogram (every request completed in it, measured
 * or not; HdrHistogram's compressed encoding in base64, null for a second without one) and its failed requests; and
 * where the measured window lies on the same clock. Agents send theirs whole, so that compare adds histograms per
 * second ({@link Histogram#add}) and never averages percentiles.
 *
 * @param measureStartSecond the measured window's start, in seconds since the load's start
 * @param measureEndSecond   its end (a counted window's: when its last request was answered)
 */
public record SecondSeries(
        double measureStartSecond, double measureEndSecond, List<String> histograms, List<Long> failed) {

    /** One second: requests completed in it (answered or failed), and their latency in ms; null figures for none. */
    public record Second(int second, long requests, long failed, Double p50Ms, Double p99Ms, Double maxMs) {}

    public SecondSeries {
        histograms =
                histograms == null ? List.of() : java.util.Collections.unmodifiableList(new ArrayList<>(histograms));
        failed = failed == null ? List.of() : List.copyOf(failed);
    }

    /** The event loops' buckets of one load added second by second. */
    static SecondSeries of(double measureStartSecond, double measureEndSecond, List<SecondBuckets> loops) {
        List<List<byte[]>> seconds = loops.stream().map(SecondBuckets::seconds).toList();
        List<long[]> failures = loops.stream().map(SecondBuckets::failed).toList();
        int length = seconds.stream().mapToInt(List::size).max().orElse(0);
        List<String> histograms = new ArrayList<>(length);
        List<Long> failed = new ArrayList<>(length);
        for (int s = 0; s < length; s++) {
            Histogram sum = null;
            long failedHere = 0;
            for (int loop = 0; loop < seconds.size(); loop++) {
                if (s < seconds.get(loop).size() && seconds.get(loop).get(s) != null) {
                    sum = add(sum, decode(seconds.get(loop).get(s)));
                }
                if (s < failures.get(loop).length) {
                    failedHere += failures.get(loop)[s];
                }
            }
            histograms.add(sum == null ? null : encode(sum));
            failed.add(failedHere);
        }
        return new SecondSeries(measureStartSecond, measureEndSecond, histograms, failed);
    }

    /**
     * The newest whole second the event loops have all or partly closed, their histograms of it added: what a live
     * view shows once a second. Null before any loop closed one.
     */
    static Second latest(List<SecondBuckets.Latest> loops) {
        int newest = loops.stream()
                .filter(l -> l != null)
                .mapToInt(SecondBuckets.Latest::second)
                .max()
                .orElse(-1);
        Histogram sum = null;
        for (SecondBuckets.Latest loop : loops) {
            if (loop != null && loop.second() == newest) {
                sum = add(sum, decode(loop.histogram()));
            }
        }
        return sum == null
                ? null
                : new Second(
                        newest,
                        sum.getTotalCount(),
                        0,
                        ms(sum.getValueAtPercentile(50)),
                        ms(sum.getValueAtPercentile(99)),
                        ms(sum.getMaxValue()));
    }

    /**
     * Several generators' series of one run (agents started together) added second by second: histograms with
     * {@link Histogram#add}, failures summed; the measured window is the first's (a timed window is as long on each).
     * Null when any part is null (a generator that kept none).
     */
    public static SecondSeries merge(List<SecondSeries> parts) {
        if (parts.isEmpty() || parts.stream().anyMatch(p -> p == null)) {
            return null;
        }
        int length = parts.stream().mapToInt(p -> p.histograms().size()).max().orElse(0);
        List<String> histograms = new ArrayList<>(length);
        List<Long> failed = new ArrayList<>(length);
        for (int s = 0; s < length; s++) {
            Histogram sum = null;
            long failedHere = 0;
            for (SecondSeries part : parts) {
                if (s < part.histograms().size() && part.histograms().get(s) != null) {
                    sum = add(
                            sum,
                            decode(Base64.getDecoder().decode(part.histograms().get(s))));
                }
                if (s < part.failed().size()) {
                    failedHere += part.failed().get(s);
                }
            }
            histograms.add(sum == null ? null : encode(sum));
            failed.add(failedHere);
        }
        return new SecondSeries(
                parts.getFirst().measureStartSecond(), parts.getFirst().measureEndSecond(), histograms, failed);
    }

    /** Each second's figures, from its histogram. */
    public List<Second> seconds() {
        List<Second> out = new ArrayList<>(histograms.size());
        for (int s = 0; s < histograms.size(); s++) {
            long failedHere = s < failed.size() ? failed.get(s) : 0;
            String encoded = histograms.get(s);
            if (encoded == null) {
                out.add(new Second(s, 0, failedHere, null, null, null));
                continue;
            }
            Histogram h = decode(Base64.getDecoder().decode(encoded));
            out.add(new Second(
                    s,
                    h.getTotalCount(),
                    failedHere,
                    ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(99)),
                    ms(h.getMaxValue())));
        }
        return out;
    }

    /** Each second's histogram, in microseconds (null: a second without a completed request). */
    public List<Histogram> decoded() {
        List<Histogram> out = new ArrayList<>(histograms.size());
        for (String encoded : histograms) {
            out.add(encoded == null ? null : decode(Base64.getDecoder().decode(encoded)));
        }
        return out;
    }

    private static Histogram add(Histogram sum, Histogram next) {
        if (sum == null) {
            return next;
        }
        sum.add(next);
        return sum;
    }

    private static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    private static Histogram decode(byte[] compressed) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(compressed), 1);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("a per-second histogram that does not decode: " + e.getMessage(), e);
        }
    }

    private static double ms(double micros) {
        return Math.round(micros / 10.0) / 100.0;
    }
}
