package dev.kafkafetch.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;

/**
 * The share-group scenario: one partition, a 10 ms route (Thread.sleep), records per second over a fixed window.
 * kafka-fetch-share with consumersCount × maxConcurrency slots, against kafka-fetch with the same number of slots in
 * one member (maxConcurrency, UNORDERED), camel-kafka (one consumer: one partition is one member's) and a plain
 * KafkaConsumer loop, on the same broker and data. Every contender reads a fresh group from the beginning; the window
 * opens {@code --settle-ms} after the first record (so every share member has joined), rounds interleave contenders,
 * the median of the measured rounds is reported.
 *
 * <pre>
 *   --bootstrap host:port   an existing broker (default: an embedded KRaft broker)
 *   --slots 32              total concurrency: share members × maxConcurrency, kafka-fetch maxConcurrency
 *   --members 4,2           share consumersCount values (each with slots / members maxConcurrency)
 *   --max-poll-records 100  share maxPollRecords
 *   --records 60000 --window-ms 8000 --settle-ms 2000 --rounds 3 --warmups 1 --sleep-ms 10
 *   --out DIR               also write share-&lt;date&gt;.md there
 * </pre>
 */
public final class ShareScenario {

    private final Map<String, String> opts;
    private final PrintStream log;
    private final long t0 = System.nanoTime();

    private ShareScenario(Map<String, String> opts, PrintStream log) {
        this.opts = opts;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        BenchMain.quietLogs();
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("Arguments are --name value pairs (see ShareScenario's javadoc)");
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        new ShareScenario(opts, System.out).run();
        System.exit(0);
    }

    private String opt(String name, String otherwise) {
        return opts.getOrDefault(name, otherwise);
    }

    private long num(String name, long otherwise) {
        return Long.parseLong(opt(name, Long.toString(otherwise)));
    }

    private void run() throws Exception {
        int slots = (int) num("slots", 32);
        long records = num("records", 60_000);
        long windowMs = num("window-ms", 8000);
        long settleMs = num("settle-ms", 2000);
        long sleepMs = num("sleep-ms", 10);
        int rounds = (int) num("rounds", 3);
        int warmups = (int) num("warmups", 1);
        int maxPollRecords = (int) num("max-poll-records", 100);
        List<Integer> members = new ArrayList<>();
        for (String m : opt("members", "4,2").split(",")) {
            members.add(Integer.parseInt(m.trim()));
        }
        Map<String, Supplier<Contender>> contenders = new LinkedHashMap<>();
        for (int m : members) {
            contenders.put(new ShareContender(m, slots / m, maxPollRecords).label(),
                    () -> new ShareContender(m, slots / m, maxPollRecords));
        }
        ContenderSpec fetch = ContenderSpec.kafkaFetch(1, slots, "UNORDERED");
        contenders.put(fetch.label(), () -> fetch.create(""));
        ContenderSpec camelKafka = ContenderSpec.camelKafka(1);
        contenders.put(camelKafka.label(), () -> camelKafka.create(""));
        ContenderSpec plain = ContenderSpec.plainLoop(1);
        contenders.put(plain.label(), () -> plain.create(""));

        EmbeddedKafkaCluster cluster = null;
        String bootstrap = opts.get("bootstrap");
        if (bootstrap == null) {
            cluster = EmbeddedKafkaCluster.builder().start();
            bootstrap = cluster.bootstrapServers();
        }
        log.println("camel-kafka-fetch share-group benchmark — " + Report.machine());
        log.printf("broker %s; 1 partition, %,d records, %d ms route; %d slots; window %d ms after %d ms settle;"
                   + " %d warm-up + %d rounds%n",
                cluster != null ? "embedded KRaft (Kafka 4.3.1) at " + bootstrap : bootstrap, records, sleepMs, slots,
                windowMs, settleMs, warmups, rounds);
        try (KafkaSetup kafka = new KafkaSetup(bootstrap)) {
            String topic = "bench-share-" + Long.toString(System.currentTimeMillis() % 10_000_000, 36);
            kafka.createTopic(topic, 1);
            kafka.produce(topic, 1, records, 100, 0);
            log("prepared %s: %,d records", topic, records);
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            for (int round = -warmups; round < rounds; round++) {
                for (Map.Entry<String, Supplier<Contender>> e : contenders.entrySet()) {
                    double rate = runOnce(e.getValue().get(), kafka.bootstrap(), topic, records, sleepMs, settleMs,
                            round < 0 ? Math.min(windowMs, 3000) : windowMs);
                    log("%s %s: %,.0f rec/s", round < 0 ? "warm-up" : "round " + (round + 1) + "/" + rounds,
                            e.getKey(), rate);
                    if (round >= 0) {
                        rates.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(rate);
                    }
                }
            }
            String table = table(rates, slots, sleepMs, camelKafka.label(), plain.label());
            log.println();
            log.print(table);
            if (opts.containsKey("out")) {
                Path file = Path.of(opts.get("out")).resolve("share-" + LocalDate.now() + ".md");
                write(file, table, records, sleepMs, slots, windowMs, settleMs, warmups, rounds);
                log.println("wrote " + file.toAbsolutePath().normalize());
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** Records per second over {@code windowMs}, from {@code settleMs} after the contender's first record. */
    private double runOnce(Contender c, String bootstrap, String topic, long records, long sleepMs, long settleMs,
                           long windowMs)
            throws Exception {
        Work work = new Work(records, sleepMs, false, 0);
        try {
            c.start(bootstrap, topic, "bench-share-" + UUID.randomUUID(), work);
            long deadline = System.currentTimeMillis() + 120_000;
            while (work.count() == 0) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("no record within 120 s");
                }
                Thread.sleep(5);
            }
            Thread.sleep(settleMs);
            long c0 = work.count();
            long from = System.nanoTime();
            if (work.awaitTarget(windowMs)) {
                throw new IllegalStateException("the topic ran dry inside the window: raise --records");
            }
            long n = work.count() - c0;
            return n / ((System.nanoTime() - from) / 1e9);
        } finally {
            c.stop();
        }
    }

    private static String table(Map<String, List<Double>> rates, int slots, long sleepMs, String camelKafka,
                                String plain) {
        double ck = median(rates.get(camelKafka));
        double pl = median(rates.get(plain));
        double ideal = slots * 1000.0 / sleepMs;
        StringBuilder sb = new StringBuilder();
        sb.append("| contender | median rec/s | min–max | × camel-kafka | × plain loop | of ideal |\n");
        sb.append("|---|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
            double m = median(e.getValue());
            boolean concurrent = !e.getKey().equals(camelKafka) && !e.getKey().equals(plain);
            sb.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f–%,.0f | %.1f | %.1f | %s |%n", e.getKey(), m,
                    Collections.min(e.getValue()), Collections.max(e.getValue()), m / ck, m / pl,
                    concurrent ? String.format(Locale.ROOT, "%.0f %%", 100 * m / ideal) : "-"));
        }
        sb.append(String.format(Locale.ROOT, "%nideal with %d slots: %,.0f rec/s; one record at a time: %,.0f rec/s%n",
                slots, ideal, 1000.0 / sleepMs));
        return sb.toString();
    }

    private void write(Path file, String table, long records, long sleepMs, int slots, long windowMs, long settleMs,
                       int warmups, int rounds)
            throws IOException {
        Files.createDirectories(file.getParent());
        String md = "# Share groups: 1 partition, " + sleepMs + " ms route\n\n" + Report.machine() + "\n\n"
                    + "Command: `" + command() + "`\n\n" + records + " records of 100 B on one partition; " + slots
                    + " slots; records/s over a " + windowMs + " ms window opened " + settleMs
                    + " ms after each contender's first record; " + warmups + " warm-up and " + rounds
                    + " measured rounds, contenders interleaved, median.\n\n" + table;
        Files.writeString(file, md);
    }

    private String command() {
        StringBuilder sb = new StringBuilder(
                "java -cp <benchmarks runtime classpath> dev.kafkafetch.bench.ShareScenario");
        opts.forEach((k, v) -> sb.append(" --").append(k).append(' ').append(v));
        return sb.toString();
    }

    private static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }
}
