package dev.threadbench.loadtest.report;

import dev.threadbench.loadtest.analysis.Baselines;
import dev.threadbench.loadtest.analysis.Cell;
import dev.threadbench.loadtest.analysis.Fingerprint;
import dev.threadbench.loadtest.analysis.RankSum;
import dev.threadbench.loadtest.analysis.SweepPairs;
import dev.threadbench.loadtest.base.UsageException;
import dev.threadbench.loadtest.model.Results;
import dev.threadbench.loadtest.model.Spread;
import dev.threadbench.loadtest.model.SweepPair;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The runs kept over time: compare copies each results.json, fingerprint and all, to DIR/history/;
 * {@code report --history} reads them back, keeps the runs of one machine and pinning ({@link Fingerprint#machineKey}),
 * and follows each cell's requests/s and server CPU per request (medians of its rounds) and each pair's breaking point
 * over the runs, marking change points.
 *
 * <p>Change points: binary segmentation with a permutation test, the scheme of E-divisive (Matteson and James;
 * MongoDB's and Apache Otava's change detection) with the difference of means in place of the energy statistic. The
 * split of a series whose two sides' means are furthest apart, weighted by sqrt(k (n - k) / n) so that a split near
 * either end is not favoured, is a change point when fewer than 5 % of {@link #SHUFFLES} shuffles of the series give a
 * split as far apart (the order of the runs carries no information under "no change") and the two sides' means are at
 * least 1 % apart; each side is then searched again. Each side of a change point has at least {@link #MIN_SEGMENT}
 * runs, so one or two runs that stand out, at the end of the series or anywhere, are no change point: the newest run is
 * flagged only as the third of a new level, and a clean step there needs 8 runs in all (5 before it; a noisier series
 * needs more: {@code HistoryTest}).
 */
public final class History {

    static final int SHUFFLES = 2_000;

    /** The fewest runs on either side of a change point: one or two runs that stand out are not a new level. */
    static final int MIN_SEGMENT = 3;

    /** One series: a cell's figure, or a pair's breaking point, run after run ({@code null}: not in that run). */
    public record Series(String name, List<String> dates, List<Double> values, List<Integer> changePoints) {}

    private History() {}

    /**
     * Copies {@code results} to {@code dir}/history/DATE.json; null when it could not (the run's own files are
     * written).
     */
    public static Path keep(Results results, Path dir) {
        String date =
                results.environment() == null ? null : results.environment().date();
        if (date == null) {
            return null;
        }
        Path history = dir.resolve("history");
        try {
            Files.createDirectories(history);
            Path file = history.resolve(date.replace(':', '-') + ".json");
            ResultsJson.write(results, file);
            return file;
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    /** The results files under {@code dir} (a history directory, or a results directory holding one), oldest first. */
    public static List<Results> read(Path dir) {
        Path history = Files.isDirectory(dir.resolve("history")) ? dir.resolve("history") : dir;
        if (!Files.isDirectory(history)) {
            throw new UsageException("--history: " + dir + ": no such directory");
        }
        try (Stream<Path> files = Files.list(history)) {
            List<Results> all = new ArrayList<>();
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                all.add(ResultsJson.read(file));
            }
            if (all.isEmpty()) {
                throw new UsageException("--history: no results files in " + history);
            }
            all.sort(Comparator.comparing(r -> r.environment().date()));
            return all;
        } catch (IOException e) {
            throw new UsageException("--history: cannot read " + history + " (" + e.getMessage() + ")");
        }
    }

    /** The runs of the newest run's machine and pinning, oldest first. */
    public static List<Results> ofNewestMachine(List<Results> all) {
        String key = Fingerprint.machineKey(all.getLast().environment());
        return all.stream()
                .filter(r -> Fingerprint.machineKey(r.environment()).equals(key))
                .toList();
    }

    /**
     * Each cell's req/s and server CPU per request, and each pair's breaking point, over {@code runs}, change points
     * marked.
     */
    public static List<Series> series(List<Results> runs) {
        List<String> dates = runs.stream().map(r -> r.environment().date()).toList();
        Map<String, Double[]> values = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (Cell cell : Cell.of(runs.get(i).runs())) {
                String name = "C=" + cell.concurrency()
                        + (cell.targetRate() == null ? "" : String.format(Locale.ROOT, " @%,.0f/s", cell.targetRate()))
                        + " " + cell.label() + " (" + cell.engine() + ")";
                put(values, name + " req/s", i, runs.size(), cell.requestsPerSecond());
                put(values, name + " srv us/req", i, runs.size(), cell.serverCpuMicrosPerRequest());
            }
            for (SweepPair pair : SweepPairs.of(runs.get(i))) {
                if (pair.breakingPoint() != null) {
                    values.computeIfAbsent(pair.label() + " breaking point", k -> new Double[runs.size()])[i] =
                            pair.breakingPoint().doubleValue();
                }
            }
        }
        List<Series> series = new ArrayList<>();
        values.forEach((name, array) -> {
            List<Double> list = Arrays.asList(array);
            series.add(new Series(name, dates, list, changePoints(list)));
        });
        return series;
    }

    private static void put(Map<String, Double[]> values, String name, int run, int runs, Spread spread) {
        if (spread != null) {
            values.computeIfAbsent(name, k -> new Double[runs])[run] = spread.median();
        }
    }

    /** The indices (into {@code values}, nulls skipped) where a new level starts. */
    static List<Integer> changePoints(List<Double> values) {
        List<Integer> present = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) != null) {
                present.add(i);
            }
        }
        double[] x = present.stream().mapToDouble(values::get).toArray();
        List<Integer> found = new ArrayList<>();
        segment(x, 0, x.length, found);
        return found.stream().map(present::get).sorted().toList();
    }

    private static void segment(double[] x, int from, int to, List<Integer> found) {
        int n = to - from;
        if (n < 2 * MIN_SEGMENT) {
            return;
        }
        double[] part = Arrays.copyOfRange(x, from, to);
        int split = bestSplit(part);
        double observed = statistic(part, split);
        double left = mean(part, 0, split);
        double right = mean(part, split, n);
        if (left == 0 || Math.abs(right - left) / Math.abs(left) * 100 < Baselines.NAMEABLE_PERCENT) {
            return;
        }
        SplittableRandom random = new SplittableRandom(35);
        double[] shuffled = part.clone();
        int asFar = 0;
        for (int s = 0; s < SHUFFLES; s++) {
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                double t = shuffled[i];
                shuffled[i] = shuffled[j];
                shuffled[j] = t;
            }
            if (statistic(shuffled, bestSplit(shuffled)) >= observed * (1 - 1e-12)) {
                asFar++;
            }
        }
        double p = (asFar + 1.0) / (SHUFFLES + 1.0);
        if (p > RankSum.ALPHA) {
            return;
        }
        found.add(from + split);
        segment(x, from, from + split, found);
        segment(x, from + split, to, found);
    }

    /** The k, at least {@link #MIN_SEGMENT} from either end, that most sets apart the means of [0, k) and [k, n). */
    private static int bestSplit(double[] x) {
        int best = MIN_SEGMENT;
        double most = -1;
        for (int k = MIN_SEGMENT; k <= x.length - MIN_SEGMENT; k++) {
            double value = statistic(x, k);
            if (value > most) {
                most = value;
                best = k;
            }
        }
        return best;
    }

    private static double statistic(double[] x, int k) {
        int n = x.length;
        return Math.abs(mean(x, 0, k) - mean(x, k, n)) * Math.sqrt((double) k * (n - k) / n);
    }

    private static double mean(double[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i];
        }
        return sum / (to - from);
    }

    /** The console's lines: per series its values over the runs, and its change points with the levels either side. */
    public static List<String> lines(List<Results> runs, List<Series> series) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "history: %d runs on %s, %s to %s; change points by binary segmentation with a"
                        + " permutation test (p <= 0.05, at least 1 %% apart, at least %d runs either side)",
                runs.size(),
                Fingerprint.machineKey(runs.getLast().environment()),
                runs.getFirst().environment().date(),
                runs.getLast().environment().date(),
                MIN_SEGMENT));
        for (Series s : series) {
            String values = String.join(
                    " ",
                    s.values().stream()
                            .map(v -> v == null ? "-" : String.format(Locale.ROOT, "%,.1f", v))
                            .toList());
            lines.add("  " + s.name() + ": " + values);
            for (int point : s.changePoints()) {
                lines.add("    change point at run " + (point + 1) + " ("
                        + s.dates().get(point) + ")");
            }
        }
        return lines;
    }
}
