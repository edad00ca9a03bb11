package dev.threadbench.loadtest.analysis;

/**
 * Student's t distribution, for judging one run against a history of runs: the two-sided p of a t value and the
 * quantile a 95 % bound takes, through the regularized incomplete beta function (Numerical Recipes' continued
 * fraction, Lanczos' log-gamma).
 */
final class StudentT {

    private StudentT() {}

    /** P(|T| >= |t|) with {@code df} degrees of freedom. */
    static double twoSidedP(double t, int df) {
        if (Double.isInfinite(t)) {
            return 0;
        }
        return incompleteBeta(df / (df + t * t), df / 2.0, 0.5);
    }

    /** The t with P(T <= t) = {@code probability} (above one half), by bisection of {@link #twoSidedP}. */
    static double quantile(double probability, int df) {
        double target = 2 * (1 - probability);
        double low = 0;
        double high = 1;
        while (twoSidedP(high, df) > target) {
            high *= 2;
        }
        for (int i = 0; i < 100; i++) {
            double middle = (low + high) / 2;
            if (twoSidedP(middle, df) > target) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return (low + high) / 2;
    }

    private static double incompleteBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
        return x < (a + 1) / (a + b + 2)
                ? front * continuedFraction(x, a, b) / a
                : 1 - front * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 300; m++) {
            int m2 = 2 * m;
            double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 / nonZero(1 + even * d, tiny);
            c = nonZero(1 + even / c, tiny);
            h *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 / nonZero(1 + odd * d, tiny);
            c = nonZero(1 + odd / c, tiny);
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    private static double nonZero(double value, double tiny) {
        return Math.abs(value) < tiny ? tiny : value;
    }

    private static double logGamma(double x) {
        double[] g = {
            76.18009172947146,
            -86.50532032941677,
            24.01409824083091,
            -1.231739572450155,
            0.1208650973866179e-2,
            -0.5395239384953e-5
        };
        double y = x;
        double tmp = x + 5.5;
        tmp -= (x + 0.5) * Math.log(tmp);
        double series = 1.000000000190015;
        for (double coefficient : g) {
            series += coefficient / ++y;
        }
        return -tmp + Math.log(2.5066282746310005 * series / x);
    }
}
