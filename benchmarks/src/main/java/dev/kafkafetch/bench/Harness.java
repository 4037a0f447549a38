package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Runs the six scenarios of issue #8 against one broker and collects {@link Result}s.
 * <p>
 * Measuring rules: every run uses a fresh consumer group reading from the beginning; throughput is counted from the
 * moment every group member has its assignment (or the first record, if later) to the last record; contenders are
 * stopped cleanly between runs; every round runs the contenders in an order shuffled from the run's seed, so that
 * machine noise hits all of them alike and none always runs first; the figure is the median of the measured rounds,
 * and the report pairs the rounds for ratios. The throughput scenarios run once per {@link RouteVariant} (S3/S7
 * also once per further {@link KeyDistribution}, with the first route).
 */
final class Harness {

    static final String S1 = "S1 trivial route, 1 partition";
    static final String S2 = "S2 trivial route, 8 partitions, 2 consumers";
    static final String S3 = "S3 10 ms route, 4 partitions";
    static final String S4 = "S4 memory, 1 KB backlog";
    static final String S5 = "S5 end-to-end latency";
    static final String S6 = "S6 start and stop";
    static final String S7 = "S7 10 ms route, 1 partition";
    static final String S8 = "S8 Camel's floor, no Kafka";
    static final String CPU_PER_RECORD = "CPU per record";
    static final String ALLOC_PER_RECORD = "allocated per record";
    static final String JVM_CPU_PER_RECORD = "CPU per record, whole JVM";
    static final String THREADS = "threads";
    static final String LIVE_SET = "live set (after forced full GC)";
    static final String RATE = "records/s";

    private final BenchConfig cfg;
    private final KafkaSetup kafka;
    private final PrintStream log;
    private final String runId = Long.toString(System.currentTimeMillis() % 10_000_000, 36);
    private final List<Result> results = new ArrayList<>();
    private final long t0 = System.nanoTime();

    Harness(BenchConfig cfg, KafkaSetup kafka, PrintStream log) {
        this.cfg = cfg;
        this.kafka = kafka;
        this.log = log;
    }

    List<Result> run() throws Exception {
        for (int s : cfg.scenarios) {
            long start = System.nanoTime();
            switch (s) {
                case 1:
                    scenario1();
                    break;
                case 2:
                    scenario2();
                    break;
                case 3:
                    scenario3();
                    break;
                case 4:
                    scenario4();
                    break;
                case 5:
                    scenario5();
                    break;
                case 6:
                    scenario6();
                    break;
                case 7:
                    scenario7();
                    break;
                case 8:
                    results.addAll(new CamelFloor(cfg, log).run());
                    break;
                default:
                    throw new IllegalArgumentException("No scenario " + s);
            }
            kafka.deleteCreatedTopics();
            log("scenario %d done in %.1f s", s, (System.nanoTime() - start) / 1e9);
        }
        return results;
    }

    List<Result> results() {
        return results;
    }

    // ------------------------------------------------------------------------------------------ scenarios

    /** Trivial route, 1 partition: records/s, once per route variant. */
    private void scenario1() throws Exception {
        String topic = topic("s1");
        prepare(topic, 1, cfg.s1Records, cfg.valueSize, null);
        List<ContenderSpec> specs = List.of(
                ContenderSpec.kafkaFetch(1, 1, "PARTITION"),
                ContenderSpec.kafkaFetch(1, 1, "PARTITION").pooledExchanges(),
                ContenderSpec.kafkaFetch(1, 4, "UNORDERED"),
                ContenderSpec.kafkaFetch(1, 1, "BATCH"),
                ContenderSpec.camelKafka(1),
                ContenderSpec.camelKafka(1).pooledExchanges(),
                ContenderSpec.camelKafkaBatching(1),
                ContenderSpec.plainLoop(1));
        for (RouteVariant route : cfg.routes) {
            throughput(S1, topic, 1, cfg.s1Records, 0, withRoute(specs, route), -1);
        }
    }

    /** Trivial route, 8 partitions, 2 consumers per contender: records/s, once per route variant. */
    private void scenario2() throws Exception {
        String topic = topic("s2");
        int p = cfg.s2Partitions;
        int n = cfg.s2Consumers;
        prepare(topic, p, cfg.s2Records, cfg.valueSize, null);
        List<ContenderSpec> specs = List.of(
                ContenderSpec.kafkaFetch(n, 1, "PARTITION"),
                ContenderSpec.kafkaFetch(n, 4, "UNORDERED"),
                ContenderSpec.camelKafka(n),
                ContenderSpec.plainLoop(n));
        for (RouteVariant route : cfg.routes) {
            throughput(S2, topic, p, cfg.s2Records, 0, withRoute(specs, route), -1);
        }
    }

    /**
     * 10 ms route, 4 partitions: records/s over a fixed window once the group is assigned. Cyclic keys with every
     * route variant, each further key distribution (a topic of its own) with the first route and without
     * camel-kafka (which does not depend on keys).
     */
    private void scenario3() throws Exception {
        int p = cfg.s3Partitions;
        for (String dist : cfg.keyDists) {
            KeyDistribution keys = keys(dist);
            String topic = topic("s3-" + keys.id());
            prepare(topic, p, cfg.s3Records, cfg.valueSize, keys);
            List<ContenderSpec> specs = new ArrayList<>();
            if (keys.kind() == KeyDistribution.Kind.CYCLIC) {
                specs.add(ContenderSpec.camelKafka(p));
            }
            for (String ordering : List.of("UNORDERED", "KEY")) {
                for (int c : cfg.s3Concurrency) {
                    specs.add(ContenderSpec.kafkaFetch(1, c, ordering));
                }
            }
            if (cfg.parallelConsumer) {
                for (String ordering : List.of("UNORDERED", "KEY")) {
                    for (int c : cfg.s3Concurrency) {
                        specs.add(ContenderSpec.parallelConsumer(c, ordering));
                    }
                }
            }
            for (RouteVariant route : routesFor(keys)) {
                throughput(S3, topic, p, cfg.s3Records, cfg.s3SleepMs, withKeys(withRoute(specs, route), keys),
                        cfg.s3WindowMs);
            }
        }
    }

    /** Memory while consuming a 1 KB backlog; one child JVM per contender and round. */
    private void scenario4() throws Exception {
        String topic = topic("s4");
        int p = cfg.s4Partitions;
        prepare(topic, p, cfg.s4Records, cfg.s4ValueSize, null);
        List<ContenderSpec> specs = new ArrayList<>(List.of(
                ContenderSpec.kafkaFetch(1, 1, "PARTITION").withMaxInFlight(cfg.s4MaxInFlight),
                ContenderSpec.kafkaFetch(1, 64, "UNORDERED").withMaxInFlight(cfg.s4MaxInFlight),
                ContenderSpec.camelKafka(1),
                ContenderSpec.plainLoop(1)));
        if (cfg.parallelConsumer) {
            specs.add(ContenderSpec.parallelConsumer(64, "UNORDERED"));
        }
        specs = new ArrayList<>(selected(specs));
        Map<ContenderSpec, Map<String, List<Double>>> values = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        for (int round = 0; round < cfg.s4Rounds; round++) {
            for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, S4, round)) {
                log("S4 round %d/%d %s (child JVM, -Xmx%s)", round + 1, cfg.s4Rounds, spec.label(), cfg.s4Xmx);
                Map<String, String> r = ChildJvm.runProbe(spec, kafka.bootstrap(), topic, p, cfg.s4Records, cfg.s4Xmx,
                        group(), cfg.verify, cfg.camelKafkaExtra);
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
                log("  -> live set (after forced full GCs, %s checkpoints) max %s MB, heap used peak %s MB, RSS HWM %s MB,"
                    + " %s rec/s, max in-flight %s", r.get("checkpoints"), r.get("liveSetMaxMb"),
                        r.get("heapUsedPeakMb"), r.get("rssHwmMb"), r.get("recordsPerSec"),
                        r.get("maxInFlight"));
            }
        }
        String[][] metrics = {
            { "liveSetMaxMb", LIVE_SET, "MB" },
            { "heapUsedPeakMb", "peak heap used", "MB" },
            { "rssHwmMb", "RSS high-water (VmHWM)", "MB" },
            { "recordsPerSec", "records/s (1 KB)", "rec/s" },
            { "maxInFlight", "max in-flight observed", "records" } };
        for (ContenderSpec spec : specs) {
            long[] c = counts.get(spec);
            for (String[] metric : metrics) {
                List<Double> v = values.get(spec).get(metric[0]);
                if (v != null) {
                    results.add(new Result(S4, spec, metric[1], metric[2], v, cfg.s4Records, c[0], c[1],
                            "child JVM -Xmx" + cfg.s4Xmx));
                }
            }
        }
    }

    /**
     * End-to-end latency (send time in the value → route) at a fixed produce rate; a fresh topic per round. All
     * contenders consume the same records side by side, each in its own group, so a load spike on the shared machine
     * hits all of them at once instead of whichever ran then (their own CPU at this rate is a few percent). A warm-up
     * round first (so none meets a cold JVM); each percentile is the median over the rounds.
     */
    private void scenario5() throws Exception {
        int p = cfg.s5Partitions;
        List<ContenderSpec> specs = new ArrayList<>(List.of(
                ContenderSpec.kafkaFetch(1, 1, "PARTITION"),
                ContenderSpec.kafkaFetch(1, 4, "UNORDERED"),
                ContenderSpec.camelKafka(1),
                ContenderSpec.plainLoop(1)));
        if (cfg.parallelConsumer) {
            specs.add(ContenderSpec.parallelConsumer(4, "UNORDERED"));
        }
        specs = selected(specs);
        String[] names = { "p50", "p99", "p99.9", "max" };
        double[] pcts = { 50, 99, 99.9, 100 };
        Map<ContenderSpec, List<List<Double>>> byPct = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        int runs = cfg.warmups + cfg.rounds;
        for (int round = 0; round < runs; round++) {
            boolean warmup = round < cfg.warmups;
            int seconds = warmup ? Math.min(cfg.s5Seconds, cfg.s5WarmupSeconds) : cfg.s5Seconds;
            long n = (long) cfg.s5Rate * seconds;
            String topic = topic("s5-" + round);
            kafka.createTopic(topic, p);
            Map<ContenderSpec, Work> works = new LinkedHashMap<>();
            List<Contender> running = new ArrayList<>();
            try {
                Map<ContenderSpec, String> groups = new LinkedHashMap<>();
                for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, S5, round)) {
                    Work work = new Work(n, 0, cfg.verify, (int) n);
                    Contender c = spec.create(cfg.camelKafkaExtra);
                    String group = group();
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
                log("S5 %s %s: %d rec/s for %d s -> p50 %.2f ms, p99 %.2f ms",
                        warmup ? "warm-up" : "round " + (round - cfg.warmups + 1), spec.label(), cfg.s5Rate, seconds,
                        Work.percentile(lat, 50) / 1e6, Work.percentile(lat, 99) / 1e6);
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
                results.add(new Result(S5, spec, "latency " + names[j], "ms", byPct.get(spec).get(j), n, c[0], c[1],
                        note));
            }
        }
    }

    /**
     * A 10 ms route on one partition (the case where only a key or no order lets records run in parallel): records/s
     * over a fixed window once the group is assigned; ideal = concurrency x 100 rec/s.
     */
    private void scenario7() throws Exception {
        for (String dist : cfg.keyDists) {
            KeyDistribution keys = keys(dist);
            String topic = topic("s7-" + keys.id());
            prepare(topic, 1, cfg.s7Records, cfg.valueSize, keys);
            List<ContenderSpec> specs = new ArrayList<>();
            for (String ordering : List.of("UNORDERED", "KEY")) {
                for (int c : cfg.s7Concurrency) {
                    specs.add(ContenderSpec.kafkaFetch(1, c, ordering));
                    if (cfg.parallelConsumer) {
                        specs.add(ContenderSpec.parallelConsumer(c, ordering));
                    }
                }
            }
            for (RouteVariant route : routesFor(keys)) {
                throughput(S7, topic, 1, cfg.s7Records, cfg.s3SleepMs, withKeys(withRoute(specs, route), keys),
                        cfg.s3WindowMs);
            }
        }
    }

    private KeyDistribution keys(String dist) {
        return KeyDistribution.of(dist, cfg.s3Keys, cfg.zipfExponent, cfg.hotShare, cfg.seed);
    }

    /** Every route for cyclic keys, the first route for the other distributions. */
    private List<RouteVariant> routesFor(KeyDistribution keys) {
        return keys.kind() == KeyDistribution.Kind.CYCLIC ? cfg.routes : cfg.routes.subList(0, 1);
    }

    private static List<ContenderSpec> withRoute(List<ContenderSpec> specs, RouteVariant route) {
        List<ContenderSpec> l = new ArrayList<>();
        specs.forEach(s -> l.add(s.withRoute(route)));
        return l;
    }

    private static List<ContenderSpec> withKeys(List<ContenderSpec> specs, KeyDistribution keys) {
        List<ContenderSpec> l = new ArrayList<>();
        specs.forEach(s -> l.add(s.withKeys(keys.id())));
        return l;
    }

    /** Route start → first record, and stop time of an idle route. */
    private void scenario6() throws Exception {
        String topic = topic("s6");
        prepare(topic, 1, 1, cfg.valueSize, null);
        List<ContenderSpec> specs = new ArrayList<>(List.of(
                ContenderSpec.kafkaFetch(1, 1, "PARTITION"),
                ContenderSpec.camelKafka(1),
                ContenderSpec.plainLoop(1)));
        if (cfg.parallelConsumer) {
            specs.add(ContenderSpec.parallelConsumer(16, "UNORDERED"));
        }
        specs = selected(specs);
        Map<ContenderSpec, List<Double>> firstMs = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> stopMs = new LinkedHashMap<>();
        Map<ContenderSpec, Long> seen = new HashMap<>();
        for (int round = 0; round < cfg.s6Rounds; round++) {
            for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, S6, round)) {
                Work work = new Work(1, 0, cfg.verify, 0);
                Contender c = spec.create(cfg.camelKafkaExtra);
                long stop;
                try {
                    c.start(kafka.bootstrap(), topic, group(), work);
                    if (!work.awaitTarget(60_000)) {
                        throw new IllegalStateException(spec.label() + " did not receive the record within 60 s");
                    }
                    Thread.sleep(cfg.s6IdleMs);
                } finally {
                    stop = c.stop();
                }
                double first = (work.firstNanos() - c.startNanos()) / 1e6;
                firstMs.computeIfAbsent(spec, k -> new ArrayList<>()).add(first);
                stopMs.computeIfAbsent(spec, k -> new ArrayList<>()).add(stop / 1e6);
                seen.merge(spec, work.count(), Math::min);
                log("S6 round %d/%d %s: start->first record %.0f ms, idle stop %.0f ms", round + 1, cfg.s6Rounds,
                        spec.label(), first, stop / 1e6);
            }
        }
        for (ContenderSpec spec : specs) {
            results.add(new Result(S6, spec, "start -> first record", "ms", firstMs.get(spec), 1, seen.get(spec),
                    -1, "route start (Camel context already up) to first record"));
            results.add(new Result(S6, spec, "idle stop", "ms", stopMs.get(spec), 1, seen.get(spec), -1,
                    "stopRoute / close after " + cfg.s6IdleMs + " ms idle"));
        }
    }

    // ------------------------------------------------------------------------------------------ runs

    private void throughput(String scenario, String topic, int partitions, long records, long sleepMs,
                            List<ContenderSpec> all, long windowMs)
            throws Exception {
        results.addAll(new ThroughputRuns(cfg, kafka, m -> log("%s", m)).run(scenario, topic, partitions, records,
                sleepMs, selected(all), windowMs));
    }

    /** The contenders {@code --only} keeps, each kafka-fetch one followed by its {@code --kf-twin}, if any. */
    private List<ContenderSpec> selected(List<ContenderSpec> specs) {
        List<ContenderSpec> l = new ArrayList<>();
        for (ContenderSpec s : specs) {
            if (cfg.only.isEmpty() || cfg.only.contains(s.kind()) || cfg.only.contains(s.label())) {
                l.add(s);
                if (s.isKafkaFetch() && !cfg.kfTwin.isEmpty()) {
                    l.add(s.withOptions(cfg.kfTwin));
                }
            }
        }
        return l;
    }

    // ------------------------------------------------------------------------------------------ helpers

    private void prepare(String topic, int partitions, long records, int valueSize, KeyDistribution keys)
            throws Exception {
        long start = System.nanoTime();
        kafka.createTopic(topic, partitions);
        kafka.produce(topic, partitions, records, valueSize, keys);
        double s = (System.nanoTime() - start) / 1e9;
        log("prepared %s: %,d x %d B over %d partition(s)%s in %.1f s (%,.0f rec/s)", topic, records, valueSize,
                partitions, keys != null ? ", keys " + keys.describe() : "", s, records / s);
    }

    private String topic(String name) {
        return "bench-" + name + "-" + runId;
    }

    static String group() {
        return "bench-" + UUID.randomUUID();
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }
}
