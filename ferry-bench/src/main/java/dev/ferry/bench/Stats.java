package dev.ferry.bench;

import java.util.Arrays;

/** Order statistics of samples: nearest-rank percentiles on a sorted copy. */
public final class Stats {
    private Stats() {
    }

    /** The value at quantile {@code q} (0 to 1), nearest rank; NaN when there are no samples. */
    public static double quantile(double[] samples, double q) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(q * s.length);
        return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
    }

    public static double median(double[] samples) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Rounds to {@code digits} significant digits, for output. */
    public static double round(double v, int digits) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(digits)).doubleValue();
    }
}
