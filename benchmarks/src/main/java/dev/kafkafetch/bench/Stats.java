package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The statistics of the report: per-round paired ratios with a 95 % t-interval over their logarithms, and the
 * seeded shuffle that orders the contenders of each round.
 */
final class Stats {

    /** Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T975 = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042 };

    private Stats() {
    }

    /**
     * A ratio a/b of two contenders over paired rounds: {@code ratio} the geometric mean of the per-round ratios,
     * {@code [low, high]} its 95 % confidence interval (NaN with fewer than two rounds), {@code rounds} the pairs.
     */
    record Ratio(double ratio, double low, double high, int rounds) {

        boolean hasInterval() {
            return !Double.isNaN(low) && !Double.isNaN(high);
        }

        /** The interval contains 1.0: the rounds do not tell the two apart. */
        boolean noDifference() {
            return hasInterval() && low <= 1.0 && high >= 1.0;
        }

        /** "1.52x [1.31, 1.77]", "no difference (0.97x [0.80, 1.18])" or "1.52x (1 round, no interval)". */
        String text() {
            if (Double.isNaN(ratio)) {
                return "";
            }
            if (!hasInterval()) {
                return String.format(Locale.ROOT, "%.2fx (%d round, no interval)", ratio, rounds);
            }
            String s = String.format(Locale.ROOT, "%.2fx [%.2f, %.2f]", ratio, low, high);
            return noDifference() ? "no difference (" + s + ")" : s;
        }
    }

    /**
     * Paired ratio of {@code a} to {@code b}, where {@code a.get(i)} and {@code b.get(i)} were measured in the same
     * round: the t-interval of the mean of {@code ln(a_i / b_i)}, exponentiated. Pairs with a value that is not
     * positive are left out; no pair gives NaN.
     */
    static Ratio pairedRatio(List<Double> a, List<Double> b) {
        int n = Math.min(a.size(), b.size());
        List<Double> logs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double x = a.get(i);
            double y = b.get(i);
            if (x > 0 && y > 0 && !Double.isInfinite(x) && !Double.isInfinite(y)) {
                logs.add(Math.log(x / y));
            }
        }
        if (logs.isEmpty()) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double mean = logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        int k = logs.size();
        if (k < 2) {
            return new Ratio(Math.exp(mean), Double.NaN, Double.NaN, k);
        }
        double ss = 0;
        for (double l : logs) {
            ss += (l - mean) * (l - mean);
        }
        double half = t975(k - 1) * Math.sqrt(ss / (k - 1) / k);
        return new Ratio(Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half), k);
    }

    /** The 97.5 % quantile of Student's t with {@code df} degrees of freedom (1.96 above 30). */
    static double t975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("df must be >= 1");
        }
        return df <= T975.length ? T975[df - 1] : 1.96;
    }

    /**
     * The order of round {@code round} of the contenders of {@code scenario}: a shuffle by a generator seeded from
     * the run's seed, the scenario and the round, so a seed reproduces every order of a run.
     */
    static <T> List<T> shuffled(List<T> items, long seed, String scenario, int round) {
        List<T> l = new ArrayList<>(items);
        // java.util.Random's first draws follow its seed closely: neighbouring seeds (round r, r + 1) must be mixed
        long s = mix(mix(mix(seed) ^ scenario.hashCode()) ^ round);
        Collections.shuffle(l, new Random(s));
        return l;
    }

    /** The MurmurHash3 64-bit finalizer: every input bit flips about half of the output bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
