package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.Java21Runtime;

/**
 * "Slow I/O at scale" (issue 25): one partition, a route that waits {@code --sleep-ms} (100) per record, N records in
 * flight for each N of {@code --n}. Contenders, each with a fresh group on the same backlog: kafka-fetch with a
 * blocking route ({@code Thread.sleep}) and with an asynchronous one ({@code delay(ms).asyncDelayed()} on a delayer
 * without Camel's default bound, see {@link CamelRouteContender}), UNORDERED and
 * KEY ({@code --keys} distinct keys); Parallel Consumer (blocking, UNORDERED and KEY); a plain consumer handing records
 * to an N-thread pool. All on this JVM; when a Java 21+ runtime is given ({@link Java21Runtime}: {@code -D}
 * {@value Java21Runtime#PROPERTY} or {@value Java21Runtime#ENV}), the kafka-fetch contenders run again there, each in a
 * child JVM ({@link SlowIoChild}) with {@code -Dcamel.threads.virtual.enabled=true}. A run counts records over
 * {@code --window-ms} from {@code --settle-ms} after its first record; ideal = N / sleep. One round: the figures mean
 * something only as ratios within one run.
 *
 * <pre>
 *   --bootstrap host:port   an existing broker (default: an embedded KRaft broker in this JVM)
 *   --n 1000,4000,10000 --sleep-ms 100 --records 1200000 --keys 100000 --record-bytes 100
 *   --settle-ms 2000 --window-ms 5000 --rounds 1
 *   --max-poll-records 5000 kafka-fetch's maxPollRecords (default: the option's default, 500)
 *   --max-in-flight 40000   kafka-fetch's maxInFlightRecords (default: 5,000, or twice N if more)
 *   --tag run2              names the results file slow-io-&lt;date&gt;-run2.md
 *   --only kafka-fetch,parallel   only the contenders whose label starts with one of these
 *   --virtual-only true     with a Java 21+ runtime, the kafka-fetch contenders on virtual threads only
 *   --out DIR               also write slow-io-&lt;date&gt;.md there
 * </pre>
 * With {@code -Dslowio.cpuByThread=true} on the harness JVM, each run also prints its CPU per record by thread group
 * ({@link CpuByThread}).
 */
public final class SlowIoScenario {

    static final String BLOCKING = "blocking";
    static final String ASYNC = "async";

    private final Map<String, String> opts;
    private final PrintStream log = System.out;
    private final long t0 = System.nanoTime();

    private SlowIoScenario(Map<String, String> opts) {
        this.opts = opts;
    }

    public static void main(String[] args) throws Exception {
        BenchMain.quietLogs();
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("Arguments are --name value pairs (see SlowIoScenario's javadoc)");
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        new SlowIoScenario(opts).run();
        System.exit(0);
    }

    /** One contender at one N: what it is, and how to make it. */
    record Entry(String label, String kind, String route, String ordering) {
    }

    private long num(String name, long otherwise) {
        return Long.parseLong(opts.getOrDefault(name, Long.toString(otherwise)));
    }

    private void run() throws Exception {
        long sleepMs = num("sleep-ms", 100);
        long records = num("records", 1_200_000);
        int keys = (int) num("keys", 100_000);
        int recordBytes = (int) num("record-bytes", 100);
        long settleMs = num("settle-ms", 2000);
        long windowMs = num("window-ms", 5000);
        int rounds = (int) num("rounds", 1);
        Optional<Path> java21 = Java21Runtime.java();
        List<Integer> ns = new ArrayList<>();
        for (String s : opts.getOrDefault("n", "1000,4000,10000").split(",")) {
            ns.add(Integer.parseInt(s.trim()));
        }
        EmbeddedKafkaCluster cluster = null;
        String bootstrap = opts.get("bootstrap");
        if (bootstrap == null) {
            cluster = EmbeddedKafkaCluster.builder().start();
            bootstrap = cluster.bootstrapServers();
        }
        String setup = String.format("broker %s; 1 partition, %,d records of %,d B with %,d keys; %d ms route; each"
                                     + " run a fresh group from the start, counted over %d ms from %d ms after its"
                                     + " first record; %s; Java 21+ runtime: %s",
                cluster != null ? "embedded KRaft (Kafka 4.3.1) in the harness JVM" : bootstrap, records, recordBytes,
                keys,
                sleepMs, windowMs, settleMs,
                rounds == 1 ? "one round" : rounds + " rounds, contenders in the same order",
                java21.map(Java21Runtime::describe).orElse("none given"));
        log.println("camel-kafka-fetch slow I/O benchmark — " + Report.machine());
        log.println(setup);
        SlowIoReport report = new SlowIoReport(sleepMs, java21.isPresent());
        try (KafkaSetup kafka = new KafkaSetup(bootstrap)) {
            String topic = "bench-slow-io-" + Long.toString(System.currentTimeMillis() % 10_000_000, 36);
            kafka.createTopic(topic, 1);
            kafka.produce(topic, 1, records, recordBytes, keys);
            log("prepared %s: %,d records", topic, records);
            for (int round = 1; round <= rounds; round++) {
                if (rounds > 1) {
                    log("round %d of %d", round, rounds);
                }
                runRound(kafka, topic, ns, report, java21, records, sleepMs, settleMs, windowMs);
            }
            String table = report.render();
            log.println();
            log.print(table);
            if (opts.containsKey("out")) {
                String tag = opts.containsKey("tag") ? "-" + opts.get("tag") : "";
                Path file = Path.of(opts.get("out")).resolve("slow-io-" + LocalDate.now() + tag + ".md");
                Files.createDirectories(file.getParent());
                Files.writeString(file, "# Slow I/O at scale: 1 partition, " + sleepMs + " ms route\n\n"
                                        + Report.machine() + "\n\nCommand: `" + command() + "`\n\n" + setup + ".\n\n"
                                        + table);
                log.println("wrote " + file.toAbsolutePath().normalize());
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private void runRound(KafkaSetup kafka, String topic, List<Integer> ns, SlowIoReport report,
                          Optional<Path> java21, long records, long sleepMs, long settleMs, long windowMs)
            throws Exception {
        for (int n : ns) {
            for (Entry e : entries(n)) {
                boolean virtualToo = java21.isPresent() && "kafka-fetch".equals(e.kind());
                if (!(virtualToo && opts.containsKey("virtual-only"))) {
                    SlowIoRun.Measured m = SlowIoRun.measure(create(e, n, sleepMs, kafkaFetchOptions()),
                            kafka.bootstrap(), topic,
                            work(e, records, sleepMs), settleMs, windowMs);
                    log("N=%d %s (Java %s): %,.0f rec/s, %d threads (%d kafka-fetch workers), %.0f in route,"
                        + " %.0f in flight, %.0f held, %d pauses, %.0f us CPU/rec, %.0f MB live heap", n,
                            e.label(), Runtime.version().feature(), m.rate(), m.workerThreads(),
                            m.kafkaFetchWorkers(), m.meanRunning(), m.meanInFlight(), m.meanHeld(), m.pauses(),
                            m.cpuMicrosPerRecord(), m.liveHeapMb());
                    report.add(n, e.label(), false, m);
                }
                if (virtualToo) {
                    SlowIoRun.Measured v = SlowIoChild.run(java21.get(), kafka.bootstrap(), topic, e, n, sleepMs,
                            records, settleMs, windowMs, kafkaFetchOptions());
                    log("N=%d %s (Java 21+, virtual threads): %,.0f rec/s, %d platform worker threads, %.0f in"
                        + " route, %.0f in flight, %.0f held, %d pauses, %.0f us CPU/rec, %.0f MB live heap", n,
                            e.label(), v.rate(), v.workerThreads(), v.meanRunning(), v.meanInFlight(), v.meanHeld(),
                            v.pauses(), v.cpuMicrosPerRecord(), v.liveHeapMb());
                    report.add(n, e.label(), true, v);
                }
            }
        }
    }

    /**
     * kafka-fetch's maxPollRecords ({@code --max-poll-records}; its default, 500, when not given) and maxInFlightRecords
     * ({@code --max-in-flight}; when not given, see {@link #create}).
     */
    private String kafkaFetchOptions() {
        return (opts.containsKey("max-poll-records") ? "&maxPollRecords=" + opts.get("max-poll-records") : "")
               + (opts.containsKey("max-in-flight") ? "&maxInFlightRecords=" + opts.get("max-in-flight") : "");
    }

    private List<Entry> entries(int n) {
        List<Entry> all = new ArrayList<>();
        for (String ordering : List.of("UNORDERED", "KEY")) {
            for (String route : List.of(BLOCKING, ASYNC)) {
                all.add(new Entry("kafka-fetch " + route + " " + ordering, "kafka-fetch", route, ordering));
            }
        }
        for (String ordering : List.of("UNORDERED", "KEY")) {
            all.add(new Entry("parallel-consumer " + ordering, "parallel-consumer", BLOCKING, ordering));
        }
        all.add(new Entry(PlainPoolContender.label(n), "plain-pool", BLOCKING, "UNORDERED"));
        if (opts.containsKey("only")) {
            List<String> only = List.of(opts.get("only").split(","));
            all.removeIf(e -> only.stream().noneMatch(e.label()::startsWith));
        }
        return all;
    }

    /**
     * The contender of an entry at concurrency {@code n} (kafka-fetch's window: the default 5,000, or twice n if more,
     * unless the options name one).
     */
    static Contender create(Entry e, int n, long sleepMs, String kafkaFetchOptions) {
        switch (e.kind()) {
            case "kafka-fetch":
                ContenderSpec spec = ContenderSpec.kafkaFetch(1, n, e.ordering())
                        .withMaxInFlight(kafkaFetchOptions.contains("maxInFlightRecords=") ? 0 : Math.max(5000, 2 * n));
                return new CamelRouteContender(spec, kafkaFetchOptions, ASYNC.equals(e.route()) ? sleepMs : 0);
            case "parallel-consumer":
                return new ParallelConsumerContender(n, e.ordering());
            case "plain-pool":
                return new PlainPoolContender(n);
            default:
                throw new IllegalArgumentException("Unknown contender kind " + e.kind());
        }
    }

    /** A blocking route sleeps in the work; an asynchronous one waited in the route already. */
    static Work work(Entry e, long records, long sleepMs) {
        return new Work(records, ASYNC.equals(e.route()) ? 0 : sleepMs, false, 0);
    }

    static String group() {
        return "bench-slow-io-" + UUID.randomUUID();
    }

    private String command() {
        StringBuilder sb = new StringBuilder("benchmarks/slow-io.sh");
        opts.forEach((k, v) -> {
            if (!"out".equals(k)) {
                sb.append(" --").append(k).append(' ').append(v);
            }
        });
        return sb.toString();
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }
}
