package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.kafkafetch.bench.Harness.JVM_CPU_PER_RECORD;
import static dev.kafkafetch.bench.Harness.RATE;

/**
 * The pipeline scenario's tables: per route, each contender's median records/s, the rounds' min–max, the p10–p90 of
 * the 500 ms slices and the whole JVM's CPU per record; then the ratios the issue asks for (transacted / plain
 * kafka-fetch first), each the geometric mean of the per-round ratios with its 95 % t-interval ({@link Stats}),
 * "no difference" when the interval contains 1.0.
 */
final class PipelineReport {

    private final List<Result> results;
    /** Contender spec → label, in the order rows are printed. */
    private final Map<ContenderSpec, String> labels;
    private final int maxConcurrency;
    private final int partitions;
    private final long sleepMs;

    PipelineReport(List<Result> results, Map<ContenderSpec, String> labels, int maxConcurrency, int partitions,
                   long sleepMs) {
        this.results = results;
        this.labels = labels;
        this.maxConcurrency = maxConcurrency;
        this.partitions = partitions;
        this.sleepMs = sleepMs;
    }

    String render() {
        Map<String, List<Result>> byScenario = new LinkedHashMap<>();
        for (Result r : results) {
            byScenario.computeIfAbsent(r.scenario(), k -> new ArrayList<>()).add(r);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, List<Result>> e : byScenario.entrySet()) {
            boolean slow = e.getKey().equals(PipelineScenario.SLOW);
            sb.append("### ").append(e.getKey()).append("\n\n");
            sb.append("| contender | median rec/s | rounds min – max | 500 ms slices p10 – p90 | CPU per record, whole"
                      + " JVM (us) |");
            sb.append(slow ? " of ideal |\n|---|---:|---:|---:|---:|---:|\n" : "\n|---|---:|---:|---:|---:|\n");
            for (Map.Entry<ContenderSpec, String> c : labels.entrySet()) {
                Optional<Result> rate = find(e.getValue(), c.getValue(), RATE);
                if (rate.isEmpty()) {
                    continue;
                }
                Result r = rate.get();
                double cpu = find(e.getValue(), c.getValue(), JVM_CPU_PER_RECORD).map(Result::median)
                        .orElse(Double.NaN);
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s – %s | %s | %s |", c.getValue(), fmt(r.median()),
                        fmt(r.min()), fmt(r.max()), slices(r), fmt(cpu)));
                if (slow) {
                    double ideal = (c.getValue().startsWith("kafka-fetch") ? maxConcurrency : partitions) * 1000.0
                                   / sleepMs;
                    sb.append(String.format(Locale.ROOT, " %.0f %% of %,.0f |", 100 * r.median() / ideal, ideal));
                }
                sb.append('\n');
            }
            sb.append("\n| ratio (paired per round) | ").append(e.getKey().substring(0, 2)).append(" |\n|---|---|\n");
            for (String[] pair : pairs()) {
                String text = ratio(e.getValue(), pair[0], pair[1]);
                if (!text.isEmpty()) {
                    sb.append("| ").append(pair[0]).append(" / ").append(pair[1]).append(" | ").append(text)
                            .append(" |\n");
                }
            }
            sb.append('\n');
        }
        sb.append("Ratios: geometric mean of the per-round ratios of records/s, 95 % t-interval over the rounds"
                  + " (same run, same broker); \"no difference\" when it contains 1.0.\n");
        return sb.toString();
    }

    /** The ratios asked for: label prefixes, numerator first. */
    private static List<String[]> pairs() {
        String tx = PipelineScenario.TX;
        String fetch = PipelineScenario.PLAIN_FETCH;
        return List.of(
                new String[] { tx, fetch },
                new String[] { tx, PipelineScenario.CAMEL_KAFKA },
                new String[] { tx, PipelineScenario.TX_LOOP },
                new String[] { tx, PipelineScenario.LOOP },
                new String[] { fetch, PipelineScenario.CAMEL_KAFKA },
                new String[] { fetch, PipelineScenario.LOOP },
                new String[] { PipelineScenario.TX_LOOP, PipelineScenario.LOOP });
    }

    private String ratio(List<Result> rs, String a, String b) {
        Optional<Result> ra = findPrefix(rs, a);
        Optional<Result> rb = findPrefix(rs, b);
        if (ra.isEmpty() || rb.isEmpty()) {
            return "";
        }
        return Stats.pairedRatio(ra.get().values(), rb.get().values()).text();
    }

    private Optional<Result> findPrefix(List<Result> rs, String prefix) {
        return rs.stream().filter(r -> r.metric().equals(RATE) && labels.get(r.spec()).startsWith(prefix))
                .findFirst();
    }

    private Optional<Result> find(List<Result> rs, String label, String metric) {
        return rs.stream().filter(r -> r.metric().equals(metric) && label.equals(labels.get(r.spec()))).findFirst();
    }

    private static String slices(Result r) {
        return r.slices().size() > 1
                ? fmt(Result.percentile(r.slices(), 10)) + " – " + fmt(Result.percentile(r.slices(), 90))
                : "";
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
