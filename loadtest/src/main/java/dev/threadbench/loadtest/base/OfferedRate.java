package dev.threadbench.loadtest.base;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * An open-model rate as given to --rate: requests/s ({@code 4000}), or a fraction of the workload's bound
 * ({@code 0.9x}), which only compare, knowing the bound, can resolve.
 */
public record OfferedRate(double value, boolean ofBound) {

    /** @throws UsageException naming what is wrong with {@code text} */
    public static OfferedRate parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        boolean ofBound = trimmed.endsWith("x");
        String number = ofBound ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new UsageException("--rate: not a rate: '" + text
                    + "' (requests/s such as 4000, or a fraction of the bound such as 0.9x)");
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new UsageException("--rate: must be more than 0, got '" + text + "'");
        }
        return new OfferedRate(value, ofBound);
    }

    /** Requests/s: the value itself, or that fraction of {@code bound}. */
    public double perSecond(double bound) {
        return ofBound ? value * bound : value;
    }

    @Override
    public String toString() {
        String number = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        return ofBound ? number + "x" : number;
    }
}
