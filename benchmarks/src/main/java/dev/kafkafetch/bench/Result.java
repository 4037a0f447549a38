package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One measured figure of one contender in one scenario, over all measured rounds.
 *
 * @param values   one value per measured round
 * @param expected records every round had to deliver (-1 when not a delivery check)
 * @param consumed fewest records one round saw (re-deliveries included)
 * @param distinct fewest distinct records one round saw, -1 when not tracked
 * @param slices   steady-state throughput: the rate of each short slice of every round's window (the spread within
 *                 the rounds); empty otherwise
 */
record Result(String scenario, ContenderSpec spec, String metric, String unit, List<Double> values,
        long expected, long consumed, long distinct, String note, List<Double> slices) {

    Result(String scenario, ContenderSpec spec, String metric, String unit, List<Double> values, long expected,
           long consumed, long distinct, String note) {
        this(scenario, spec, metric, unit, values, expected, consumed, distinct, note, List.of());
    }

    String contender() {
        return spec.label();
    }

    double median() {
        return percentile(values, 50);
    }

    double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** The p-th percentile (nearest rank, interpolated at the median) of {@code v}; NaN when empty. */
    static double percentile(List<Double> v, double p) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        if (p == 50) {
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }
        int idx = (int) Math.ceil(p / 100.0 * n) - 1;
        return s.get(Math.max(0, Math.min(n - 1, idx)));
    }
}
