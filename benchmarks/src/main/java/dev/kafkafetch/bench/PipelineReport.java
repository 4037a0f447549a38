package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.kafkafetch.bench.Harness.JVM_CPU_PER_RECORD;
import static dev.kafkafetch.bench.Harness.RATE;
import static dev.kafkafetch.bench.ThroughputRuns.OUTPUT_RATE;

/**
 * The pipeline scenario's tables: per route, each contender's median records/s routed, the rounds' min–max, the
 * p10–p90 of the 500 ms slices, its committed outputs/s and the whole JVM's CPU per record; then the ratios the issue asks for (transacted / plain
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
            sb.append("| contender | median records/s routed | rounds min – max | 500 ms slices p10 – p90 | median"
                      + " committed outputs/s | rounds min – max | CPU per record, whole JVM (us) |");
            sb.append(slow ? " routed, of ideal |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
                    : "\n|---|---:|---:|---:|---:|---:|---:|\n");
            for (Map.Entry<ContenderSpec, String> c : labels.entrySet()) {
                Optional<Result> rate = find(e.getValue(), c.getValue(), RATE);
                if (rate.isEmpty()) {
                    continue;
                }
                Result r = rate.get();
                double cpu = find(e.getValue(), c.getValue(), JVM_CPU_PER_RECORD).map(Result::median)
                        .orElse(Double.NaN);
                Optional<Result> out = find(e.getValue(), c.getValue(), OUTPUT_RATE);
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s – %s | %s | %s | %s | %s |", c.getValue(),
                        fmt(r.median()), fmt(r.min()), fmt(r.max()), slices(r),
                        out.map(o -> fmt(o.median())).orElse("n/a"),
                        out.map(o -> fmt(o.min()) + " – " + fmt(o.max())).orElse(""), fmt(cpu)));
                if (slow) {
                    double ideal = (c.getValue().startsWith("kafka-fetch") ? maxConcurrency : partitions) * 1000.0
                                   / sleepMs;
                    sb.append(String.format(Locale.ROOT, " %.0f %% of %,.0f |", 100 * r.median() / ideal, ideal));
                }
                sb.append('\n');
            }
            sb.append("\n| ratio (paired per round), ").append(e.getKey().substring(0, 2))
                    .append(" | records routed/s | committed outputs/s |\n|---|---|---|\n");
            for (String[] pair : pairs()) {
                String routed = ratio(e.getValue(), RATE, pair[0], pair[1]);
                if (!routed.isEmpty()) {
                    sb.append("| ").append(pair[0]).append(" / ").append(pair[1]).append(" | ").append(routed)
                            .append(" | ").append(ratio(e.getValue(), OUTPUT_RATE, pair[0], pair[1])).append(" |\n");
                }
            }
            sb.append('\n');
        }
        sb.append("Records routed/s: records handed to the producer step, 500 ms slices of the window. Committed"
                  + " outputs/s: growth of the output topic's last stable offsets over the same window (what a"
                  + " read_committed reader can see; transaction markers included, one per output partition and"
                  + " transaction). Ratios: geometric mean of the per-round ratios, 95 % t-interval over the rounds"
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

    private String ratio(List<Result> rs, String metric, String a, String b) {
        Optional<Result> ra = findPrefix(rs, metric, a);
        Optional<Result> rb = findPrefix(rs, metric, b);
        if (ra.isEmpty() || rb.isEmpty()) {
            return "";
        }
        return Stats.pairedRatio(ra.get().values(), rb.get().values()).text();
    }

    private Optional<Result> findPrefix(List<Result> rs, String metric, String prefix) {
        return rs.stream().filter(r -> r.metric().equals(metric) && labels.get(r.spec()).startsWith(prefix))
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
