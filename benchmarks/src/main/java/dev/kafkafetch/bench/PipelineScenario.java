package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Kafka-to-Kafka pipelines (issue 27): read an input topic, write each record's id ({@code partition-offset}) to an
 * output topic, at a trivial route and a 10 ms route ({@code Thread.sleep}), same run, same broker. Contenders:
 * <ul>
 * <li>kafka-fetch {@code transacted=true} with {@code to("kafka-fetch:out")} (exactly once);</li>
 * <li>kafka-fetch plain with camel-kafka's producer {@code to("kafka:out")} (at least once, the pipeline users have
 * today), the same consumer options;</li>
 * <li>camel-kafka consumer + camel-kafka producer (one record at a time per consumer, so one consumer per
 * partition);</li>
 * <li>Kafka's standard exactly-once loop (one transaction per poll, {@code sendOffsetsToTransaction}) and the plain
 * at-least-once loop (flush per poll, auto-commit), one thread per partition ({@link PlainPipelineContender}).</li>
 * </ul>
 * Both kafka-fetch contenders run one consumer with {@code maxConcurrency} and {@code ordering} (default 64, KEY).
 * Each run is {@link ThroughputRuns}' steady state: a fresh group from the beginning of the backlog and a fresh output
 * topic; the first {@code --skip-ms} of consuming skipped, then over {@code --window-ms}: records/s in 500 ms slices,
 * counted when the route (or loop) hands a record to its producer, and committed outputs/s, the growth of the output
 * topic's last stable offsets (what a {@code read_committed} reader can see) over the same window; warm-up then
 * measured rounds in a seeded shuffled order; ratios paired per round ({@link PipelineReport}).
 *
 * <pre>
 *   --bootstrap host:port   an existing broker (default: an embedded KRaft broker in this JVM)
 *   --records 6000000 --partitions 4 --keys 1000 --max-concurrency 64 --ordering KEY --sleep-ms 10
 *   --routes trivial,slow   which routes run (slow = the --sleep-ms route)
 *   --rounds 4 --warmups 1 --skip-ms 1500 --window-ms 4000 --seed N
 *   --producer-options lingerMs=0   camel-kafka producer options ({@code kafka:out?...&amp;lingerMs=0}), a&amp;b
 *   --only kafka-fetch      only the contenders whose label starts with one of these (comma separated)
 *   --out DIR               also write pipeline-&lt;date&gt;.md there
 *   --verify true           every record (drain mode, tiny counts) and read every output topic back (the smoke test)
 * </pre>
 */
public final class PipelineScenario {

    static final String TRIVIAL = "P1 pipeline, trivial route";
    static final String SLOW = "P2 pipeline, 10 ms route";
    static final String TX = "kafka-fetch transacted + kafka-fetch:out";
    static final String PLAIN_FETCH = "kafka-fetch + kafka:out";
    static final String CAMEL_KAFKA = "camel-kafka + kafka:out";
    static final String TX_LOOP = "plain transactional loop";
    static final String LOOP = "plain loop + producer";

    private final Map<String, String> opts;
    private final PrintStream log;
    private final long t0 = System.nanoTime();
    /** With --verify: contender label → [outputs read, distinct ids] of its last run. */
    private final Map<String, long[]> outputs = new LinkedHashMap<>();

    PipelineScenario(Map<String, String> opts, PrintStream log) {
        this.opts = opts;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        BenchMain.quietLogs();
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("Arguments are --name value pairs (see PipelineScenario's javadoc)");
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        new PipelineScenario(opts, System.out).run(null);
        System.exit(0);
    }

    private String opt(String name, String otherwise) {
        return opts.getOrDefault(name, otherwise);
    }

    private long num(String name, long otherwise) {
        return Long.parseLong(opt(name, Long.toString(otherwise)));
    }

    /** With --verify: per contender label, the outputs read back from its last run's topic and their distinct ids. */
    Map<String, long[]> outputs() {
        return outputs;
    }

    /** Runs against {@code bootstrap} (or --bootstrap, or a new embedded broker); returns the results. */
    List<Result> run(String bootstrap) throws Exception {
        BenchConfig cfg = BenchConfig.full();
        cfg.rounds = (int) num("rounds", 4);
        cfg.warmups = (int) num("warmups", 1);
        cfg.seed = num("seed", cfg.seed);
        cfg.steadyWarmupMs = num("skip-ms", 1500);
        cfg.steadyWindowMs = num("window-ms", 4000);
        cfg.verify = Boolean.parseBoolean(opt("verify", "false"));
        if (cfg.verify) {
            cfg.steadyWindowMs = 0; // every record
        }
        int partitions = (int) num("partitions", 4);
        int mc = (int) num("max-concurrency", 64);
        String ordering = opt("ordering", "KEY");
        long records = num("records", 6_000_000);
        long sleepMs = num("sleep-ms", 10);
        KeyDistribution keys = KeyDistribution.cyclic((int) num("keys", 1000));

        Map<String, Function<String, Contender>> makers = new LinkedHashMap<>();
        String fetchOpts = " mc=" + mc + " " + ordering;
        String po = opt("producer-options", "");
        String producerOpts = po.isEmpty() ? "" : "&" + po;
        String poLabel = po.isEmpty() ? "" : " (" + po + ")";
        makers.put(TX + fetchOpts,
                out -> new CamelPipelineContender(CamelPipelineContender.Shape.KAFKA_FETCH_TRANSACTED,
                        out, 1, mc, ordering, "", ""));
        makers.put(PLAIN_FETCH + fetchOpts + poLabel, out -> new CamelPipelineContender(
                CamelPipelineContender.Shape.KAFKA_FETCH_PLAIN, out, 1, mc, ordering, "", producerOpts));
        // pollTimeoutMs only matters when idle: it keeps each camel-kafka stop from costing its default 5 s
        makers.put(CAMEL_KAFKA + " cc=" + partitions + poLabel, out -> new CamelPipelineContender(
                CamelPipelineContender.Shape.CAMEL_KAFKA, out, partitions, 1, "PARTITION", "&pollTimeoutMs=500",
                producerOpts));
        makers.put(TX_LOOP + " x" + partitions, out -> new PlainPipelineContender(partitions, true, out));
        makers.put(LOOP + " x" + partitions, out -> new PlainPipelineContender(partitions, false, out));
        if (opts.containsKey("only")) {
            List<String> only = List.of(opt("only", "").split(","));
            makers.keySet().removeIf(label -> only.stream().noneMatch(label::startsWith));
        }
        Map<ContenderSpec, String> labels = new LinkedHashMap<>();
        for (String label : makers.keySet()) {
            int members = label.startsWith("kafka-fetch") ? 1 : partitions;
            labels.put(new ContenderSpec(label, members, label.startsWith("kafka-fetch") ? mc : 1,
                    label.startsWith("kafka-fetch") ? ordering : "PARTITION", 0, false, RouteVariant.PLAIN,
                    keys.id()), label);
        }
        List<String> routes = List.of(opt("routes", "trivial,slow").split(","));

        EmbeddedKafkaCluster cluster = null;
        String bs = bootstrap != null ? bootstrap : opts.get("bootstrap");
        if (bs == null) {
            cluster = EmbeddedKafkaCluster.builder().start();
            bs = cluster.bootstrapServers();
        }
        String loadBefore = Report.loadAverage();
        String setup = String.format(Locale.ROOT, "broker: %s; input %,d records of 100 B, %d partitions, keys %s;"
                                                  + " kafka-fetch consumersCount=1 maxConcurrency=%d ordering=%s;"
                                                  + " camel-kafka and the plain loops one consumer per partition (%d);"
                                                  + " producers with their clients' defaults; %d warm-up + %d measured"
                                                  + " rounds, order shuffled per round with seed %d; each run skips"
                                                  + " %.1f s of consuming, then counts %.1f s in 500 ms slices",
                cluster != null ? "embedded KRaft (1 combined node, Kafka 4.3.1) in the harness JVM" : bs, records,
                partitions, keys.describe(), mc, ordering, partitions, cfg.warmups, cfg.rounds, cfg.seed,
                cfg.steadyWarmupMs / 1e3, cfg.steadyWindowMs / 1e3);
        log.println("camel-kafka-fetch pipeline benchmark — " + Report.machine());
        log.println(setup);
        log.println("load average " + loadBefore);
        List<Result> results = new ArrayList<>();
        try (KafkaSetup kafka = new KafkaSetup(bs)) {
            String input = "bench-pipeline-" + Long.toString(System.currentTimeMillis() % 10_000_000, 36);
            kafka.createTopic(input, partitions);
            long p0 = System.nanoTime();
            kafka.produce(input, partitions, records, 100, keys);
            log("prepared %s: %,d records in %.1f s", input, records, (System.nanoTime() - p0) / 1e9);
            AtomicInteger runs = new AtomicInteger();
            Function<ContenderSpec, Contender> factory = spec -> {
                String out = input + "-out-" + runs.incrementAndGet();
                try {
                    kafka.createTopic(out, partitions);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                Contender c = makers.get(labels.get(spec)).apply(out);
                return new Probed(c, kafka, out, partitions, cfg.verify ? labels.get(spec) : null);
            };
            ThroughputRuns tr = new ThroughputRuns(cfg, kafka, m -> log("%s", m), factory);
            List<ContenderSpec> specs = new ArrayList<>(labels.keySet());
            for (String route : routes) {
                boolean slow = route.equals("slow");
                results.addAll(tr.run(slow ? SLOW : TRIVIAL, input, partitions, records, slow ? sleepMs : 0, specs,
                        -1));
            }
            kafka.deleteCreatedTopics();
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        String loadAfter = Report.loadAverage();
        String table = new PipelineReport(results, labels, mc, partitions, sleepMs).render();
        log.println();
        log.print(table);
        log.println("load average at the start " + loadBefore + ", at the end " + loadAfter);
        if (opts.containsKey("out")) {
            Path file = Path.of(opts.get("out")).resolve("pipeline-" + LocalDate.now() + ".md");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "# Kafka-to-Kafka pipelines: transacted vs plain\n\n" + Report.machine()
                                    + "\n\nCode measured: commit " + Report.commit() + "\n\nCommand: `" + command()
                                    + "`\n\n" + setup + ".\n\nLoad average (1, 5, 15 min) at the start " + loadBefore
                                    + ", at the end " + loadAfter + ".\n\n" + table);
            log.println("wrote " + file.toAbsolutePath().normalize());
        }
        return results;
    }

    private String command() {
        StringBuilder sb = new StringBuilder("benchmarks/pipeline.sh");
        opts.forEach((k, v) -> {
            if (!k.equals("out")) {
                sb.append(" --").append(k).append(' ').append(v);
            }
        });
        return sb.toString();
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }

    /**
     * A contender with its output topic: {@link #committedOutputs()} from the topic's last stable offsets; with a
     * label (--verify), after the contender stops, its output topic read back ({@code read_committed}): outputs and
     * distinct ids.
     */
    private final class Probed implements Contender {

        private final Contender delegate;
        private final KafkaSetup kafka;
        private final String topic;
        private final int partitions;
        private final String label;

        Probed(Contender delegate, KafkaSetup kafka, String topic, int partitions, String label) {
            this.delegate = delegate;
            this.kafka = kafka;
            this.topic = topic;
            this.partitions = partitions;
            this.label = label;
        }

        @Override
        public long committedOutputs() throws Exception {
            return kafka.committedEnd(topic, partitions);
        }

        @Override
        public void start(String bs, String in, String groupId, Work work) throws Exception {
            delegate.start(bs, in, groupId, work);
        }

        @Override
        public long startNanos() {
            return delegate.startNanos();
        }

        @Override
        public long stop() throws Exception {
            long took = delegate.stop();
            if (label != null) {
                outputs.put(label, readBack());
            }
            return took;
        }

        private long[] readBack() {
            var props = PlainLoopContender.consumerProps(kafka.bootstrap(), "readback-" + UUID.randomUUID());
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
                List<TopicPartition> tps = new ArrayList<>();
                for (PartitionInfo p : c.partitionsFor(topic)) {
                    tps.add(new TopicPartition(topic, p.partition()));
                }
                c.assign(tps);
                c.seekToBeginning(tps);
                Map<TopicPartition, Long> end = new HashMap<>(c.endOffsets(tps));
                long total = 0;
                Set<String> ids = new HashSet<>();
                long deadline = System.currentTimeMillis() + 60_000;
                while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("reading " + topic + " back took over 60 s");
                    }
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                        total++;
                        ids.add(r.value());
                    }
                }
                return new long[] { total, ids.size() };
            }
        }
    }
}
