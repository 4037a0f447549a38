package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One measured figure of one contender in one scenario, over all measured rounds.
 *
 * @param expected records every round had to deliver (-1 when not a delivery check)
 * @param consumed fewest records one round saw (re-deliveries included)
 * @param distinct fewest distinct records one round saw, -1 when not tracked
 */
record Result(String scenario, ContenderSpec spec, String metric, String unit, List<Double> values,
        long expected, long consumed, long distinct, String note) {

    String contender() {
        return spec.label();
    }

    double median() {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
