package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The memory runs of S4: each contender and round in a child JVM of its own ({@link ChildJvm#runProbe}) consuming a
 * backlog, reporting the live set after forced full GCs, the peak heap used, the RSS high-water mark, the rate and
 * the most records it held in flight; one value per round in every list.
 */
final class MemoryRuns {

    private final BenchConfig cfg;
    private final KafkaSetup kafka;
    private final Consumer<String> log;

    MemoryRuns(BenchConfig cfg, KafkaSetup kafka, Consumer<String> log) {
        this.cfg = cfg;
        this.kafka = kafka;
        this.log = log;
    }

    /** Runs {@code specs} on the prepared backlog {@code topic} of {@code p} partitions. */
    List<Result> run(String topic, int p, List<ContenderSpec> specs) throws Exception {
        List<Result> results = new ArrayList<>();
        Map<ContenderSpec, Map<String, List<Double>>> values = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        for (int round = 0; round < cfg.s4Rounds; round++) {
            for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, Harness.S4, round)) {
                log.accept(String.format("S4 round %d/%d %s (child JVM, -Xmx%s)", round + 1, cfg.s4Rounds, spec.label(),
                        cfg.s4Xmx));
                Map<String, String> r = ChildJvm.runProbe(spec, kafka.bootstrap(), topic, p, cfg.s4Records, cfg.s4Xmx,
                        Harness.group(), cfg.verify, cfg.camelKafkaExtra);
                Map<String, List<Double>> m = values.computeIfAbsent(spec, k -> new LinkedHashMap<>());
                for (String key : List.of("liveSetMaxMb", "heapUsedPeakMb", "rssHwmMb", "recordsPerSec",
                        "maxInFlight")) {
                    double v = Double.parseDouble(r.getOrDefault(key, "-1"));
                    if (v >= 0) {
                        m.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                    }
                }
                long consumed = Long.parseLong(r.get("consumed"));
                long distinct = Long.parseLong(r.get("distinct"));
                counts.merge(spec, new long[] { consumed, distinct },
                        (a, b) -> new long[] { Math.min(a[0], b[0]), Math.min(a[1], b[1]) });
                log.accept(String.format(
                        "  -> live set (after forced full GCs, %s checkpoints) max %s MB, heap used peak %s MB, RSS HWM %s MB,"
                                         + " %s rec/s, max in-flight %s",
                        r.get("checkpoints"), r.get("liveSetMaxMb"),
                        r.get("heapUsedPeakMb"), r.get("rssHwmMb"), r.get("recordsPerSec"),
                        r.get("maxInFlight")));
            }
        }
        String[][] metrics = {
            { "liveSetMaxMb", Harness.LIVE_SET, "MB" },
            { "heapUsedPeakMb", "peak heap used", "MB" },
            { "rssHwmMb", "RSS high-water (VmHWM)", "MB" },
            { "recordsPerSec", "records/s (1 KB)", "rec/s" },
            { "maxInFlight", "max in-flight observed", "records" } };
        for (ContenderSpec spec : specs) {
            long[] c = counts.get(spec);
            for (String[] metric : metrics) {
                List<Double> v = values.get(spec).get(metric[0]);
                if (v != null) {
                    results.add(new Result(Harness.S4, spec, metric[1], metric[2], v, cfg.s4Records, c[0], c[1],
                            "child JVM -Xmx" + cfg.s4Xmx));
                }
            }
        }
        return results;
    }
}
