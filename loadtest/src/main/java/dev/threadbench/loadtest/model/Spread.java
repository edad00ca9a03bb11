package dev.threadbench.loadtest.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** One figure over the rounds of a cell: its median, lowest and highest, and how many rounds gave it. */
public record Spread(double median, double min, double max, int n) {

    /** The figures that are there (an engine or a --targets server may give none); null when none is. */
    public static Spread of(List<Double> values) {
        List<Double> sorted = values.stream().filter(Objects::nonNull).sorted().toList();
        if (sorted.isEmpty()) {
            return null;
        }
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.getFirst(), sorted.getLast(), n);
    }

    /** max - min. */
    public double range() {
        return max - min;
    }

    /** (max - min) / median: the spread the targets are put in; 0 for a median of 0. */
    public double relativeRange() {
        return median == 0 ? 0 : range() / Math.abs(median);
    }

    /**
     * Whether two cells differ in this figure: only when both have a spread (two rounds or more) and their ranges do
     * not overlap, the lowest round of one above the highest of the other. Ranges that overlap, even at one end, are no
     * difference the rounds show.
     */
    public static Judgement judge(Spread a, Spread b) {
        if (a == null || b == null) {
            return Judgement.NOT_MEASURED;
        }
        if (a.n < 2 || b.n < 2) {
            return Judgement.NO_SPREAD;
        }
        return a.min > b.max || b.min > a.max ? Judgement.APART : Judgement.OVERLAP;
    }

    public enum Judgement {
        /** The ranges do not overlap. */
        APART,
        /** The ranges overlap. */
        OVERLAP,
        NO_SPREAD,
        NOT_MEASURED
    }

    /** {@code 9,994 (9,960-10,003)}: the median, and the range when there are two rounds or more. */
    public String format(String numberFormat) {
        String median = String.format(Locale.ROOT, numberFormat, this.median);
        return n < 2
                ? median
                : median + " (" + String.format(Locale.ROOT, numberFormat, min) + "-"
                        + String.format(Locale.ROOT, numberFormat, max) + ")";
    }

    /** As {@link #format}, with "-" for a figure not measured. */
    public static String format(Spread spread, String numberFormat) {
        return spread == null ? "-" : spread.format(numberFormat);
    }
}
