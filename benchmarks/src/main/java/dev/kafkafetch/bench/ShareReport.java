package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The share scenario's tables: per backlog case, each contender's median rate, min–max and share of ideal (slots ×
 * 1000 / route ms), and its ratio to classic kafka-fetch, the plain share loop and camel-kafka: the geometric mean of
 * per-round PAIRED ratios (each taken within one round) with its 95 % interval ({@link Stats#pairedRatio}, "no
 * difference" when it contains 1.0), against classic with every round's ratio.
 */
final class ShareReport {

    private final int slots;
    private final long sleepMs;
    /** case → contender → round → rate */
    private final Map<String, Map<String, TreeMap<Integer, Double>>> rates = new LinkedHashMap<>();
    /** case → contender → the route's measured ms per record, one per round */
    private final Map<String, Map<String, List<Double>>> routeMs = new LinkedHashMap<>();
    /** contender → the ms until a burst's slots filled, one per round */
    private final Map<String, List<Double>> filledAfterMs = new LinkedHashMap<>();
    /** The contenders in the order their rows are printed. */
    final List<String> order = new ArrayList<>();
    String headline;
    String classic;
    String plainShare;
    String camelKafka;

    ShareReport(int slots, long sleepMs) {
        this.slots = slots;
        this.sleepMs = sleepMs;
    }

    /** The route's measured time per record in one run (its sleep, woken late on a loaded machine). */
    void addRouteTime(String kase, String contender, double ms) {
        routeMs.computeIfAbsent(kase, k -> new LinkedHashMap<>()).computeIfAbsent(contender, k -> new ArrayList<>())
                .add(ms);
    }

    /** When a burst's last slot took its first record, in ms after the first ({@link BurstTimeline#filledAfterMs}). */
    void addFilledAfter(String contender, double ms) {
        if (!Double.isNaN(ms)) {
            filledAfterMs.computeIfAbsent(contender, k -> new ArrayList<>()).add(ms);
        }
    }

    void add(String kase, String contender, int round, double rate) {
        rates.computeIfAbsent(kase, k -> new LinkedHashMap<>()).computeIfAbsent(contender, k -> new TreeMap<>())
                .put(round, rate);
    }

    String render() {
        double ideal = slots * 1000.0 / sleepMs;
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Map<String, TreeMap<Integer, Double>>> kase : rates.entrySet()) {
            Map<String, TreeMap<Integer, Double>> byContender = kase.getValue();
            sb.append("### Backlog ").append(kase.getKey()).append("\n\n");
            sb.append("| contender | median rec/s | min–max | of ideal | × classic mc=").append(slots)
                    .append(" (per round) | × plain share loop | × camel-kafka |\n");
            sb.append("|---|---:|---:|---:|---|---:|---:|\n");
            for (String label : order) {
                TreeMap<Integer, Double> byRound = byContender.get(label);
                if (byRound == null) {
                    continue;
                }
                List<Double> v = new ArrayList<>(byRound.values());
                double m = median(v);
                sb.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f–%,.0f | %.0f %% | %s | %s | %s |%n",
                        label, m, Collections.min(v), Collections.max(v), 100 * m / ideal,
                        paired(byContender, label, classic, true),
                        paired(byContender, label, plainShare, false),
                        paired(byContender, label, camelKafka, false)));
            }
            sb.append('\n');
            routeTimes(sb, kase.getKey());
        }
        sb.append(String.format(Locale.ROOT, "ideal with %d slots: %,.0f rec/s; one record at a time: %,.0f rec/s."
                                             + " Ratios: geometric mean of per-round paired ratios (same round, same"
                                             + " broker) with its 95 %% t-interval over the rounds.%n",
                slots, ideal, 1000.0 / sleepMs));
        return sb.toString();
    }

    /**
     * Under a case's table: each contender's measured route time (median of its rounds) and what its slots could carry
     * at that time, as a share of the nominal ideal; a rate is then read against what the route itself allowed.
     */
    private void routeTimes(StringBuilder sb, String kase) {
        Map<String, List<Double>> byContender = routeMs.get(kase);
        if (byContender == null || sleepMs == 0) {
            return;
        }
        for (String label : order) {
            List<Double> ms = byContender.get(label);
            if (ms == null || ms.isEmpty()) {
                continue;
            }
            double m = median(ms);
            sb.append(String.format(Locale.ROOT, "- %s: the %d ms route took %.2f ms per record (median of rounds):"
                                                 + " its slots could carry at most %,.0f rec/s, %.0f %% of ideal%n",
                    label, sleepMs, m, slots * 1000.0 / m, 100.0 * sleepMs / m));
            List<Double> filled = ShareScenario.SMALL.equals(kase) ? filledAfterMs.get(label) : null;
            if (filled != null && !filled.isEmpty()) {
                sb.append(String.format(Locale.ROOT, "  - its %d slots filled %.1f ms after the burst's first record"
                                                     + " started (median; %.1f–%.1f ms)%n",
                        slots, median(filled), Collections.min(filled), Collections.max(filled)));
            }
        }
        sb.append('\n');
    }

    /** The paired ratio a / b with its interval, optionally followed by every round's ratio. */
    private static String paired(Map<String, TreeMap<Integer, Double>> byContender, String a, String b, boolean list) {
        TreeMap<Integer, Double> ra = byContender.get(a);
        TreeMap<Integer, Double> rb = byContender.get(b);
        if (ra == null || rb == null || a.equals(b)) {
            return "-";
        }
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        ra.forEach((round, rate) -> {
            Double other = rb.get(round);
            if (other != null && other > 0) {
                xs.add(rate);
                ys.add(other);
                ratios.add(rate / other);
            }
        });
        if (ratios.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder(Stats.pairedRatio(xs, ys).text());
        if (list) {
            sb.append(" (");
            for (int i = 0; i < ratios.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.2f", ratios.get(i)));
            }
            sb.append(')');
        }
        return sb.toString();
    }

    static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
