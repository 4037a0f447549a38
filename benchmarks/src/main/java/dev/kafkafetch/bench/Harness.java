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
    /** Scenarios that failed, each with why: the run goes on with the next one, and the report names them. */
    private final List<String> failures = new ArrayList<>();
    private final long t0 = System.nanoTime();

    Harness(BenchConfig cfg, KafkaSetup kafka, PrintStream log) {
        this.cfg = cfg;
        this.kafka = kafka;
        this.log = log;
    }

    List<Result> run() throws Exception {
        for (int s : cfg.scenarios) {
            long start = System.nanoTime();
            try {
                scenario(s);
            } catch (Exception | AssertionError e) {
                failures.add("S" + s + ": " + e);
                log("scenario %d FAILED after %.1f s, going on with the next one: %s", s,
                        (System.nanoTime() - start) / 1e9, e);
                e.printStackTrace(log);
            }
            kafka.deleteCreatedTopics();
            log("scenario %d done in %.1f s", s, (System.nanoTime() - start) / 1e9);
        }
        return results;
    }

    /** The scenarios that failed, each with why (their figures are missing from the results). */
    List<String> failures() {
        return failures;
    }

    private void scenario(int s) throws Exception {
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
        results.addAll(new MemoryRuns(cfg, kafka, m -> log("%s", m)).run(topic, p, specs));
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
        results.addAll(new LatencyRuns(cfg, kafka, m -> log("%s", m)).run(p, specs, this::topic));
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
