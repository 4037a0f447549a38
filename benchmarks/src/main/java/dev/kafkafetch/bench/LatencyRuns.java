package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The latency runs of S5: in each round a fresh topic, every contender started side by side in its own group, records
 * produced at a fixed rate with their send time in the value, and each contender's end-to-end latency percentiles; a
 * warm-up round first, one value per measured round in every list.
 */
final class LatencyRuns {

    private final BenchConfig cfg;
    private final KafkaSetup kafka;
    private final Consumer<String> log;

    LatencyRuns(BenchConfig cfg, KafkaSetup kafka, Consumer<String> log) {
        this.cfg = cfg;
        this.kafka = kafka;
        this.log = log;
    }

    /** Runs {@code specs} on {@code p}-partition topics named by {@code topicName} (one per round). */
    List<Result> run(int p, List<ContenderSpec> specs, UnaryOperator<String> topicName) throws Exception {
        List<Result> results = new ArrayList<>();
        String[] names = { "p50", "p99", "p99.9", "max" };
        double[] pcts = { 50, 99, 99.9, 100 };
        Map<ContenderSpec, List<List<Double>>> byPct = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        int runs = cfg.warmups + cfg.rounds;
        for (int round = 0; round < runs; round++) {
            boolean warmup = round < cfg.warmups;
            int seconds = warmup ? Math.min(cfg.s5Seconds, cfg.s5WarmupSeconds) : cfg.s5Seconds;
            long n = (long) cfg.s5Rate * seconds;
            String topic = topicName.apply("s5-" + round);
            kafka.createTopic(topic, p);
            Map<ContenderSpec, Work> works = new LinkedHashMap<>();
            List<Contender> running = new ArrayList<>();
            try {
                Map<ContenderSpec, String> groups = new LinkedHashMap<>();
                for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, Harness.S5, round)) {
                    Work work = new Work(n, 0, cfg.verify, (int) n);
                    Contender c = spec.create(cfg.camelKafkaExtra);
                    String group = Harness.group();
                    running.add(c);
                    c.start(kafka.bootstrap(), topic, group, work);
                    works.put(spec, work);
                    groups.put(spec, group);
                }
                for (Map.Entry<ContenderSpec, String> g : groups.entrySet()) {
                    kafka.awaitAssigned(g.getValue(), topic, p, g.getKey().members(), 60_000);
                }
                Thread.sleep(500); // let the first (empty) fetches go out
                kafka.produceAtRate(topic, p, n, cfg.s5Rate, cfg.valueSize);
                for (Map.Entry<ContenderSpec, Work> w : works.entrySet()) {
                    if (!w.getValue().awaitTarget(60_000)) {
                        throw new IllegalStateException(w.getKey().label() + " saw " + w.getValue().count() + " of "
                                                        + n + " records");
                    }
                }
            } finally {
                for (Contender c : running) {
                    c.stop();
                }
            }
            for (Map.Entry<ContenderSpec, Work> w : works.entrySet()) {
                ContenderSpec spec = w.getKey();
                Work work = w.getValue();
                long[] lat = work.latencies();
                log.accept(String.format("S5 %s %s: %d rec/s for %d s -> p50 %.2f ms, p99 %.2f ms",
                        warmup ? "warm-up" : "round " + (round - cfg.warmups + 1), spec.label(), cfg.s5Rate, seconds,
                        Work.percentile(lat, 50) / 1e6, Work.percentile(lat, 99) / 1e6));
                if (warmup) {
                    continue;
                }
                List<List<Double>> lists = byPct.computeIfAbsent(spec, k -> {
                    List<List<Double>> l = new ArrayList<>();
                    for (int j = 0; j < pcts.length; j++) {
                        l.add(new ArrayList<>());
                    }
                    return l;
                });
                for (int j = 0; j < pcts.length; j++) {
                    lists.get(j).add(Work.percentile(lat, pcts[j]) / 1e6);
                }
                counts.merge(spec, new long[] { work.count(), work.distinct() },
                        (a, b) -> new long[] { Math.min(a[0], b[0]), Math.min(a[1], b[1]) });
            }
        }
        String note = cfg.s5Rate + " rec/s for " + cfg.s5Seconds + " s per round over " + p
                      + " partitions, every contender reading the same records at the same time (own group);"
                      + " median of the rounds' percentiles";
        long n = (long) cfg.s5Rate * cfg.s5Seconds;
        for (ContenderSpec spec : specs) {
            long[] c = counts.get(spec);
            for (int j = 0; j < pcts.length; j++) {
                results.add(
                        new Result(Harness.S5, spec, "latency " + names[j], "ms", byPct.get(spec).get(j), n, c[0], c[1],
                                note));
            }
        }
        return results;
    }
}
