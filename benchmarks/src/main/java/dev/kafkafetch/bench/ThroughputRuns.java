package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.kafkafetch.bench.Harness.ALLOC_PER_RECORD;
import static dev.kafkafetch.bench.Harness.CPU_PER_RECORD;
import static dev.kafkafetch.bench.Harness.JVM_CPU_PER_RECORD;
import static dev.kafkafetch.bench.Harness.RATE;
import static dev.kafkafetch.bench.Harness.THREADS;

/**
 * The throughput runs of S1, S2, S3 and S7: warm-up and measured rounds of a list of contenders on one topic, each
 * run a fresh group from the beginning, the contenders of each round in a seeded shuffled order. Every run reports
 * its rate and, over the same window, the whole JVM's and the contender's own CPU per record, its allocation and its
 * threads ({@link ThreadCost}); one value per round in every list, so the report can pair the rounds.
 */
final class ThroughputRuns {

    /** Pipelines: outputs a read_committed reader can see, per second of the steady window. */
    static final String OUTPUT_RATE = "committed outputs/s";

    private final BenchConfig cfg;
    private final KafkaSetup kafka;
    private final Consumer<String> log;
    private final Function<ContenderSpec, Contender> factory;

    ThroughputRuns(BenchConfig cfg, KafkaSetup kafka, Consumer<String> log) {
        this(cfg, kafka, log, spec -> spec.create(cfg.camelKafkaExtra));
    }

    /** @param factory a new contender for each run of a spec (the pipeline scenario's contenders are not in ContenderSpec) */
    ThroughputRuns(BenchConfig cfg, KafkaSetup kafka, Consumer<String> log,
                   Function<ContenderSpec, Contender> factory) {
        this.cfg = cfg;
        this.kafka = kafka;
        this.log = log;
        this.factory = factory;
    }

    /**
     * Warm-up then measured rounds, contenders interleaved. {@code windowMs < 0}: a steady-state window (see
     * {@link #steady}), or in smoke mode every record; otherwise a fixed window of {@code windowMs} after assignment.
     */
    List<Result> run(String scenario, String topic, int partitions, long records, long sleepMs,
                     List<ContenderSpec> specs, long windowMs)
            throws Exception {
        List<Result> results = new ArrayList<>();
        boolean steady = windowMs < 0 && cfg.steadyWindowMs > 0;
        for (int w = 0; w < cfg.warmups; w++) {
            for (ContenderSpec spec : specs) {
                long window = windowMs < 0 ? -1 : cfg.s3WarmupWindowMs;
                RunStats s = runOnce(spec, topic, partitions, records, sleepMs, window);
                log("%s warm-up %s: %,.0f rec/s", short2(scenario), spec.describe(), s.rate);
            }
        }
        Map<ContenderSpec, Map<String, List<Double>>> perRound = new LinkedHashMap<>();
        Map<ContenderSpec, List<Double>> slices = new LinkedHashMap<>();
        Map<ContenderSpec, long[]> counts = new HashMap<>();
        String order = scenario + "/" + (specs.isEmpty() ? "" : specs.get(0).route().id() + "/" + specs.get(0).keys());
        for (int round = 0; round < cfg.rounds; round++) {
            for (ContenderSpec spec : Stats.shuffled(specs, cfg.seed, order, round)) {
                RunStats s = runOnce(spec, topic, partitions, records, sleepMs, windowMs);
                Map<String, List<Double>> m = perRound.computeIfAbsent(spec, k -> new LinkedHashMap<>());
                // one value per round in every list (NaN when nothing was measured), so that rounds pair up
                double n = s.measured > 0 ? s.measured : Double.NaN;
                add(m, RATE, s.rate);
                add(m, JVM_CPU_PER_RECORD, s.jvmCpuNanos >= 0 ? s.jvmCpuNanos / 1e3 / n : Double.NaN);
                add(m, CPU_PER_RECORD, s.cpuNanos / 1e3 / n);
                add(m, ALLOC_PER_RECORD, s.allocBytes / n);
                add(m, THREADS, s.threads);
                if (s.outputs >= 0) {
                    add(m, OUTPUT_RATE, s.outputs / s.seconds);
                }
                if (s.brokerCpuNanos >= 0) {
                    add(m, "broker CPU per record", s.brokerCpuNanos / 1e3 / n);
                }
                slices.computeIfAbsent(spec, k -> new ArrayList<>()).addAll(s.slices);
                counts.merge(spec, new long[] { s.consumed, s.distinct },
                        (x, y) -> new long[] { Math.min(x[0], y[0]), Math.min(x[1], y[1]) });
                log("%s round %d/%d %s: %,.0f rec/s (%,d records in %.2f s%s; assigned after %.0f ms, stop %.0f ms;"
                    + " %.2f us CPU per record whole JVM, %.2f us own threads, %,.0f B allocated, %d threads)",
                        short2(scenario), round + 1, cfg.rounds, spec.describe(), s.rate, s.measured, s.seconds,
                        s.note.isEmpty() ? "" : ", " + s.note, s.assignMs, s.stopMs, s.jvmCpuNanos / 1e3 / n,
                        s.cpuNanos / 1e3 / n, s.allocBytes / n, s.threads);
            }
        }
        String note;
        if (steady) {
            note = String.format(Locale.ROOT, "steady state: %,d records; each run skips its first %.1f s of"
                                              + " consuming, then measures %.1f s (slices of %d ms)",
                    records, cfg.steadyWarmupMs / 1e3, cfg.steadyWindowMs / 1e3, cfg.sliceMs);
        } else {
            note = windowMs < 0 ? "all " + records + " records"
                    : "window " + windowMs + " ms from " + cfg.fixedWindowSkipMs + " ms after assignment";
        }
        if (sleepMs > 0) {
            note += "; ideal " + idealNote(sleepMs);
        }
        String[][] metrics = {
            { RATE, "rec/s" }, { JVM_CPU_PER_RECORD, "us" }, { CPU_PER_RECORD, "us" }, { ALLOC_PER_RECORD, "B" },
            { THREADS, "threads" }, { "broker CPU per record", "us" },
            { OUTPUT_RATE, "outputs/s" } };
        for (ContenderSpec spec : specs) {
            long[] c = counts.get(spec);
            for (String[] metric : metrics) {
                List<Double> v = perRound.get(spec).get(metric[0]);
                // a cost measured in no round (every record consumed before the window) is left out
                if (v != null && (metric[0].equals(RATE) || v.stream().anyMatch(x -> !x.isNaN()))) {
                    results.add(new Result(scenario, spec, metric[0], metric[1], v, records, c[0], c[1], note,
                            metric[0].equals(RATE) ? slices.get(spec) : List.of()));
                }
            }
        }
        return results;
    }

    private static void add(Map<String, List<Double>> m, String metric, double v) {
        m.computeIfAbsent(metric, k -> new ArrayList<>()).add(v);
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
        long jvmCpuNanos = -1;
        int threads;
        /** Outputs committed over the steady window ({@link Contender#committedOutputs()}), -1 when none. */
        long outputs = -1;
    }

    private RunStats runOnce(ContenderSpec spec, String topic, int partitions, long records, long sleepMs,
                             long windowMs)
            throws Exception {
        Work work = new Work(records, sleepMs, cfg.verify, 0, spec.route());
        Contender c = factory.apply(spec);
        String group = Harness.group();
        RunStats s = new RunStats();
        ThreadCost cost = ThreadCost.excludingLiveThreads();
        boolean drain = windowMs < 0 && cfg.steadyWindowMs <= 0;
        try {
            if (drain) {
                cost.begin(); // a tiny backlog (smoke mode) may be consumed before the group is seen stable
            }
            c.start(kafka.bootstrap(), topic, group, work);
            long stable = kafka.awaitAssigned(group, topic, partitions, spec.members(), 120_000);
            s.assignMs = (stable - c.startNanos()) / 1e6;
            if (windowMs < 0 && cfg.steadyWindowMs > 0) {
                steady(spec, c, work, stable, cost, s);
            } else if (drain) {
                drain(spec, work, stable, records, s);
                cost.end();
            } else {
                // steady state for the fixed windows too: the first records after assignment (JIT, fetches) skipped
                sleepUntil(stable + TimeUnit.MILLISECONDS.toNanos(cfg.fixedWindowSkipMs));
                cost.begin();
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
                cost.end();
                s.seconds = Math.max(1e-9, (to - from) / 1e9);
            }
            s.cpuNanos = cost.cpuNanos();
            s.allocBytes = cost.allocatedBytes();
            s.jvmCpuNanos = cost.jvmCpuNanos();
            s.threads = cost.threads();
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
    private void steady(ContenderSpec spec, Contender c, Work work, long stable, ThreadCost cost, RunStats s)
            throws Exception {
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
        long out0 = c.committedOutputs();
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
        long out1 = c.committedOutputs();
        s.outputs = out0 >= 0 && out1 >= 0 ? out1 - out0 : -1;
        long broker1 = ThreadCost.brokerCpuNanos();
        s.brokerCpuNanos = broker0 >= 0 && broker1 >= 0 ? broker1 - broker0 : -1;
        s.measured = c1 - c0;
        s.seconds = Math.max(1e-9, (t1 - t0) / 1e9);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    private void log(String fmt, Object... args) {
        log.accept(String.format(fmt, args));
    }
}
