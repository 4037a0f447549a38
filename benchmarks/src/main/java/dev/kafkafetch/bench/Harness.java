package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Runs the six scenarios of issue #8 against one broker and collects {@link Result}s.
 * <p>
 * Measuring rules: every run uses a fresh consumer group reading from the beginning; throughput is counted from the
 * moment every group member has its assignment (or the first record, if later) to the last record; contenders are
 * stopped cleanly between runs; rounds interleave the contenders (A B C, B C A, C A B, ...) so that machine noise
 * hits all of them alike and none always runs first; the figure is the median of the measured rounds.
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

    /** Trivial route, 1 partition: records/s. */
    private void scenario1() throws Exception {
        String topic = topic("s1");
        prepare(topic, 1, cfg.s1Records, cfg.valueSize, 0);
        List<ContenderSpec> specs = List.of(
                ContenderSpec.kafkaFetch(1, 1, "PARTITION"),
                ContenderSpec.kafkaFetch(1, 1, "PARTITION").pooledExchanges(),
                ContenderSpec.kafkaFetch(1, 4, "UNORDERED"),
                ContenderSpec.kafkaFetch(1, 1, "BATCH"),
                ContenderSpec.camelKafka(1),
                ContenderSpec.camelKafka(1).pooledExchanges(),
                ContenderSpec.plainLoop(1));
        throughput(S1, topic, 1, cfg.s1Records, 0, specs, -1);
    }

    /** Trivial route, 8 partitions, 2 consumers per contender: records/s. */
    private void scenario2() throws Exception {
        String topic = topic("s2");
        int p = cfg.s2Partitions;
        int n = cfg.s2Consumers;
        prepare(topic, p, cfg.s2Records, cfg.valueSize, 0);
        List<ContenderSpec> specs = List.of(
                ContenderSpec.kafkaFetch(n, 1, "PARTITION"),
                ContenderSpec.kafkaFetch(n, 4, "UNORDERED"),
                ContenderSpec.camelKafka(n),
                ContenderSpec.plainLoop(n));
        throughput(S2, topic, p, cfg.s2Records, 0, specs, -1);
    }

    /** 10 ms route, 4 partitions: records/s over a fixed window once the group is assigned. */
    private void scenario3() throws Exception {
        String topic = topic("s3");
        int p = cfg.s3Partitions;
        prepare(topic, p, cfg.s3Records, cfg.valueSize, cfg.s3Keys);
        List<ContenderSpec> specs = new ArrayList<>();
        specs.add(ContenderSpec.camelKafka(p));
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
        throughput(S3, topic, p, cfg.s3Records, cfg.s3SleepMs, specs, cfg.s3WindowMs);
    }

    /** Memory while consuming a 1 KB backlog; one child JVM per contender and round. */
    private void scenario4() throws Exception {
        String topic = topic("s4");
        int p = cfg.s4Partitions;
        prepare(topic, p, cfg.s4Records, cfg.s4ValueSize, 0);
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
            for (ContenderSpec spec : specs) {
                log("S4 round %d/%d %s (child JVM, -Xmx%s)", round + 1, cfg.s4Rounds, spec.label(), cfg.s4Xmx);
                Map<String, String> r = ChildJvm.runProbe(spec, kafka.bootstrap(), topic, p, cfg.s4Records, cfg.s4Xmx,
                        group(), cfg.verify, cfg.camelKafkaExtra);
                Map<String, List<Double>> m = values.computeIfAbsent(spec, k -> new LinkedHashMap<>());
                for (String key : List.of("heapAfterGcMaxMb", "heapUsedPeakMb", "rssHwmMb", "recordsPerSec",
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
                log("  -> live heap after GC max %s MB, heap used peak %s MB, RSS HWM %s MB, %s rec/s, max in-flight %s",
                        r.get("heapAfterGcMaxMb"), r.get("heapUsedPeakMb"), r.get("rssHwmMb"), r.get("recordsPerSec"),
                        r.get("maxInFlight"));
            }
        }
        String[][] metrics = {
            { "heapAfterGcMaxMb", "max heap after GC", "MB" },
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
                for (ContenderSpec spec : rotated(specs, round)) {
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
        String topic = topic("s7");
        prepare(topic, 1, cfg.s7Records, cfg.valueSize, cfg.s3Keys);
        List<ContenderSpec> specs = new ArrayList<>();
        for (String ordering : List.of("UNORDERED", "KEY")) {
            for (int c : cfg.s7Concurrency) {
                specs.add(ContenderSpec.kafkaFetch(1, c, ordering));
                if (cfg.parallelConsumer) {
                    specs.add(ContenderSpec.parallelConsumer(c, ordering));
                }
            }
        }
        throughput(S7, topic, 1, cfg.s7Records, cfg.s3SleepMs, specs, cfg.s3WindowMs);
    }

    /** Route start → first record, and stop time of an idle route. */
    private void scenario6() throws Exception {
        String topic = topic("s6");
        prepare(topic, 1, 1, cfg.valueSize, 0);
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
            for (ContenderSpec spec : specs) {
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

    /**
     * Warm-up then measured rounds, contenders interleaved. {@code windowMs < 0}: a steady-state window (see
     * {@link #steady}), or in smoke mode every record; otherwise a fixed window of {@code windowMs} after assignment.
     */
    private void throughput(String scenario, String topic, int partitions, long records, long sleepMs,
                            List<ContenderSpec> all, long windowMs)
            throws Exception {
        List<ContenderSpec> specs = selected(all);
        boolean steady = windowMs < 0 && cfg.steadyWindowMs > 0;
        for (int w = 0; w < cfg.warmups; w++) {
            for (ContenderSpec spec : specs) {
                long window = windowMs < 0 ? -1 : cfg.s3WarmupWindowMs;
                RunStats s = runOnce(spec, topic, partitions, records, sleepMs, window);
                log("%s warm-up %s: %,.0f rec/s", short2(scenario), spec.label(), s.rate);
            }
        }
        Map<ContenderSpec, List<Double>> rates = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> slices = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> cpu = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> alloc = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> brokerCpu = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        for (int round = 0; round < cfg.rounds; round++) {
            for (ContenderSpec spec : rotated(specs, round)) {
                RunStats s = runOnce(spec, topic, partitions, records, sleepMs, windowMs);
                rates.computeIfAbsent(spec, k -> new ArrayList<>()).add(s.rate);
                slices.computeIfAbsent(spec, k -> new ArrayList<>()).addAll(s.slices);
                if (s.measured > 0) {
                    cpu.computeIfAbsent(spec, k -> new ArrayList<>()).add(s.cpuNanos / 1e3 / s.measured);
                    alloc.computeIfAbsent(spec, k -> new ArrayList<>()).add((double) s.allocBytes / s.measured);
                    if (s.brokerCpuNanos >= 0) {
                        brokerCpu.computeIfAbsent(spec, k -> new ArrayList<>())
                                .add(s.brokerCpuNanos / 1e3 / s.measured);
                    }
                }
                counts.merge(spec, new long[] { s.consumed, s.distinct },
                        (a, b) -> new long[] { Math.min(a[0], b[0]), Math.min(a[1], b[1]) });
                String cost = steady && s.measured > 0
                        ? String.format(Locale.ROOT, "; %.2f us CPU and %,.0f B allocated per record",
                                s.cpuNanos / 1e3 / s.measured, (double) s.allocBytes / s.measured)
                        : "";
                log("%s round %d/%d %s: %,.0f rec/s (%,d records in %.2f s%s; assigned after %.0f ms, stop %.0f ms%s)",
                        short2(scenario), round + 1, cfg.rounds, spec.label(), s.rate, s.measured, s.seconds,
                        s.note.isEmpty() ? "" : ", " + s.note, s.assignMs, s.stopMs, cost);
            }
        }
        String note;
        if (steady) {
            note = String.format(Locale.ROOT, "steady state: %,d records; each run skips its first %.1f s of"
                                              + " consuming, then measures %.1f s (slices of %d ms)",
                    records, cfg.steadyWarmupMs / 1e3, cfg.steadyWindowMs / 1e3, cfg.sliceMs);
        } else {
            note = windowMs < 0 ? "all " + records + " records" : "window " + windowMs + " ms after assignment";
        }
        if (sleepMs > 0) {
            note += "; ideal " + idealNote(sleepMs);
        }
        for (ContenderSpec spec : specs) {
            long[] c = counts.get(spec);
            results.add(new Result(scenario, spec, "records/s", "rec/s", rates.get(spec), records, c[0], c[1], note,
                    slices.get(spec)));
            if (steady && cpu.containsKey(spec)) {
                results.add(new Result(scenario, spec, CPU_PER_RECORD, "us", cpu.get(spec), records, c[0], c[1],
                        note));
                results.add(new Result(scenario, spec, ALLOC_PER_RECORD, "B", alloc.get(spec), records, c[0], c[1],
                        note));
            }
            if (steady && brokerCpu.containsKey(spec)) {
                results.add(
                        new Result(scenario, spec, "broker CPU per record", "us", brokerCpu.get(spec), records, c[0],
                                c[1], note));
            }
        }
    }

    /** The contenders in round {@code round}'s order: each round starts one further, so none always runs first. */
    private static List<ContenderSpec> rotated(List<ContenderSpec> specs, int round) {
        List<ContenderSpec> l = new ArrayList<>(specs);
        Collections.rotate(l, -(round % Math.max(1, l.size())));
        return l;
    }

    private List<ContenderSpec> selected(List<ContenderSpec> specs) {
        if (cfg.only.isEmpty()) {
            return specs;
        }
        List<ContenderSpec> l = new ArrayList<>();
        for (ContenderSpec s : specs) {
            if (cfg.only.contains(s.kind()) || cfg.only.contains(s.label())) {
                l.add(s);
            }
        }
        return l;
    }

    private static String idealNote(long sleepMs) {
        return "concurrency x " + (1000 / sleepMs) + " rec/s";
    }

    private static String short2(String scenario) {
        return scenario.substring(0, 2);
    }

    private static final class RunStats {
        double rate;
        long measured;
        double seconds;
        long consumed;
        long distinct;
        String note = "";
        double assignMs;
        double stopMs;
        List<Double> slices = new ArrayList<>();
        long cpuNanos;
        long allocBytes;
        long brokerCpuNanos = -1;
    }

    private RunStats runOnce(ContenderSpec spec, String topic, int partitions, long records, long sleepMs,
                             long windowMs)
            throws Exception {
        Work work = new Work(records, sleepMs, cfg.verify, 0);
        Contender c = spec.create(cfg.camelKafkaExtra);
        String group = group();
        RunStats s = new RunStats();
        ThreadCost cost = ThreadCost.excludingLiveThreads();
        try {
            c.start(kafka.bootstrap(), topic, group, work);
            long stable = kafka.awaitAssigned(group, topic, partitions, spec.members(), 120_000);
            s.assignMs = (stable - c.startNanos()) / 1e6;
            if (windowMs < 0 && cfg.steadyWindowMs > 0) {
                steady(spec, work, stable, cost, s);
            } else if (windowMs < 0) {
                drain(spec, work, stable, records, s);
            } else {
                long from = System.nanoTime();
                long c0 = work.count();
                long to;
                if (work.awaitTarget(windowMs)) {
                    to = work.targetNanos();
                    s.measured = records - c0;
                    s.note = "drained";
                } else {
                    to = System.nanoTime();
                    s.measured = work.count() - c0;
                }
                s.seconds = Math.max(1e-9, (to - from) / 1e9);
            }
            s.rate = s.measured > 0 ? s.measured / s.seconds : 0;
        } finally {
            s.stopMs = c.stop() / 1e6;
        }
        s.consumed = work.count();
        s.distinct = work.distinct();
        if (cfg.verify && s.distinct < records && windowMs < 0) {
            throw new IllegalStateException(
                    spec.label() + " saw " + s.distinct + " distinct of " + records + " records");
        }
        return s;
    }

    /** Every record: timed from full assignment (or the first record, if later) to the last record. */
    private void drain(ContenderSpec spec, Work work, long stable, long records, RunStats s) throws Exception {
        long countAtStable = work.count();
        if (!work.awaitTarget(cfg.drainTimeoutMs)) {
            throw new IllegalStateException(spec.label() + " consumed " + work.count() + " of " + records
                                            + " records within " + cfg.drainTimeoutMs + " ms");
        }
        long to = work.targetNanos();
        long from;
        if (countAtStable > 0 && work.firstNanos() < stable && records - countAtStable > records / 10) {
            from = stable;
            s.measured = records - countAtStable;
            s.note = "timed from full assignment";
        } else {
            from = work.firstNanos();
            s.measured = records;
        }
        s.seconds = Math.max(1e-9, (to - from) / 1e9);
    }

    /**
     * Steady state: skips the first {@code steadyWarmupMs} of consuming (from full assignment or the first record,
     * whichever is later: JIT, connections, the first fetches), then counts the records of the next
     * {@code steadyWindowMs} in slices of {@code sliceMs}, with the CPU time and allocation of the contender's threads
     * over the same window. A run whose backlog ends inside the window is measured up to its last record.
     */
    private void steady(ContenderSpec spec, Work work, long stable, ThreadCost cost, RunStats s) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(cfg.drainTimeoutMs);
        while (work.count() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(spec.label() + " consumed nothing within " + cfg.drainTimeoutMs
                                                + " ms");
            }
            Thread.sleep(5);
        }
        long warmEnd = Math.max(stable, work.firstNanos()) + TimeUnit.MILLISECONDS.toNanos(cfg.steadyWarmupMs);
        sleepUntil(warmEnd);
        long c0 = work.count();
        long t0 = System.nanoTime();
        cost.begin();
        long broker0 = ThreadCost.brokerCpuNanos();
        if (c0 >= work.target()) {
            throw new IllegalStateException(spec.label() + " drained the backlog within its warm-up: produce more");
        }
        long end = t0 + TimeUnit.MILLISECONDS.toNanos(cfg.steadyWindowMs);
        long prevT = t0;
        long prevC = c0;
        long t1 = t0;
        long c1 = c0;
        while (t1 < end) {
            long next = Math.min(end, prevT + TimeUnit.MILLISECONDS.toNanos(cfg.sliceMs));
            if (work.awaitTarget(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - System.nanoTime())))) {
                t1 = work.targetNanos();
                c1 = work.target();
                s.note = String.format(Locale.ROOT, "drained after %.1f s of window", (t1 - t0) / 1e9);
                break;
            }
            t1 = System.nanoTime();
            c1 = work.count();
            if (t1 - prevT >= TimeUnit.MILLISECONDS.toNanos(cfg.sliceMs) / 2) {
                s.slices.add((c1 - prevC) / ((t1 - prevT) / 1e9));
            }
            prevT = t1;
            prevC = c1;
        }
        cost.end();
        long broker1 = ThreadCost.brokerCpuNanos();
        s.brokerCpuNanos = broker0 >= 0 && broker1 >= 0 ? broker1 - broker0 : -1;
        s.measured = c1 - c0;
        s.seconds = Math.max(1e-9, (t1 - t0) / 1e9);
        s.cpuNanos = cost.cpuNanos();
        s.allocBytes = cost.allocatedBytes();
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private void prepare(String topic, int partitions, long records, int valueSize, int keys) throws Exception {
        long start = System.nanoTime();
        kafka.createTopic(topic, partitions);
        kafka.produce(topic, partitions, records, valueSize, keys);
        double s = (System.nanoTime() - start) / 1e9;
        log("prepared %s: %,d x %d B over %d partition(s)%s in %.1f s (%,.0f rec/s)", topic, records, valueSize,
                partitions,
                keys > 0 ? ", " + keys + " keys" : "", s, records / s);
    }

    private String topic(String name) {
        return "bench-" + name + "-" + runId;
    }

    private static String group() {
        return "bench-" + UUID.randomUUID();
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }
}
