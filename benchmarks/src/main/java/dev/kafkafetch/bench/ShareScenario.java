package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;

/**
 * The share-group scenario (issue 22): one partition, a 10 ms route (Thread.sleep). kafka-fetch-share with
 * consumersCount × maxConcurrency slots and the endpoint's DEFAULT options, against kafka-fetch with the same slots in
 * one member (one partition is one member's), a plain {@link PlainShareLoopContender} of the same shape, camel-kafka and
 * a plain KafkaConsumer loop, on one broker. Two backlog cases:
 * <ul>
 * <li><b>large</b>: a steady run on a backlog of {@code --records}; records/s over {@code --window-ms}, from
 * {@code --settle-ms} after the contender's first record (every member has joined by then).</li>
 * <li><b>small</b>: the contender starts on an empty topic of its own, waits {@code --small-settle-ms} (the members
 * join), then {@code --small} records are produced at once; rate = small / (last record − first record + one route
 * time). Run alone ({@code --cases small}), it measures code the JIT has hardly compiled (a few thousand records per
 * contender in all): the share contender then made 55–74 % of ideal where it makes 84–86 % after the large case, on
 * the same code. Compare bursts only within one run of both cases.</li>
 * </ul>
 * Each run uses a fresh group. Every round runs every contender once per case, in an order shuffled with
 * {@code seed + round} (the seed is printed); rounds after the warm-ups are measured; medians and per-round paired
 * ratios are reported by {@link ShareReport}, with the route's measured time per record (a 10 ms sleep wakes late on
 * a loaded machine) and what the slots could carry at it.
 *
 * <pre>
 *   --bootstrap host:port   an existing broker (default: an embedded KRaft broker)
 *   --slots 32              total concurrency: share members × maxConcurrency, kafka-fetch maxConcurrency
 *   --members 4             share consumersCount values (each with slots / members maxConcurrency), defaults
 *   --max-poll-records 24,32  extra kafka-fetch-share variants (first members value) with this maxPollRecords
 *   --share-options 'a=1&amp;b=2;c=3'  extra kafka-fetch-share variants (first members value) with these endpoint options
 *   --records 60000 --window-ms 6000 --settle-ms 2000 --small 400 --small-settle-ms 4000
 *   --cases large,small --rounds 3 --warmups 1 --sleep-ms 10 --seed 1
 *   --only kafka-fetch-share,kafka-fetch   only the contenders whose label starts with one of these
 *   --out DIR               also write share-&lt;date&gt;.md there
 * </pre>
 */
public final class ShareScenario {

    static final String LARGE = "large";
    static final String SMALL = "small";

    private final Map<String, String> opts;
    private final PrintStream log;
    private final long t0 = System.nanoTime();
    /** The last burst's time until its slots filled ({@link BurstTimeline#filledAfterMs}). */
    private double lastFilledAfterMs = Double.NaN;

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

    private static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            if (!s.isBlank()) {
                out.add(Integer.parseInt(s.trim()));
            }
        }
        return out;
    }

    private void run() throws Exception {
        int slots = (int) num("slots", 32);
        long sleepMs = num("sleep-ms", 10);
        int rounds = (int) num("rounds", 3);
        int warmups = (int) num("warmups", 1);
        long seed = num("seed", 1);
        List<String> cases = List.of(opt("cases", LARGE + "," + SMALL).split(","));
        List<Integer> members = ints(opt("members", "4"));
        ShareReport report = new ShareReport(slots, sleepMs);
        Map<String, Supplier<Contender>> contenders = new LinkedHashMap<>();
        for (int m : members) {
            ShareContender c = new ShareContender(m, slots / m, "");
            contenders.put(c.label(), () -> new ShareContender(m, slots / m, ""));
            if (report.headline == null) {
                report.headline = c.label();
            }
        }
        List<String> variants = new ArrayList<>();
        for (int mpr : ints(opt("max-poll-records", ""))) {
            variants.add("maxPollRecords=" + mpr);
        }
        for (String v : opt("share-options", "").split(";")) {
            if (!v.isBlank()) {
                variants.add(v.trim());
            }
        }
        for (String v : variants) {
            int m = members.get(0);
            contenders.put(new ShareContender(m, slots / m, v).label(), () -> new ShareContender(m, slots / m, v));
        }
        ContenderSpec fetch = ContenderSpec.kafkaFetch(1, slots, "UNORDERED");
        contenders.put(fetch.label(), () -> fetch.create(""));
        report.classic = fetch.label();
        int m0 = members.get(0);
        report.plainShare = new PlainShareLoopContender(m0, slots / m0, 0).label();
        contenders.put(report.plainShare, () -> new PlainShareLoopContender(m0, slots / m0, 0));
        ContenderSpec camelKafka = ContenderSpec.camelKafka(1);
        report.camelKafka = camelKafka.label();
        // pollTimeoutMs only matters when idle: it keeps each camel-kafka stop from costing its default 5 s
        contenders.put(report.camelKafka, () -> camelKafka.create("&pollTimeoutMs=500"));
        ContenderSpec plain = ContenderSpec.plainLoop(1);
        contenders.put(plain.label(), () -> plain.create(""));
        if (opts.containsKey("only")) {
            List<String> only = List.of(opt("only", "").split(","));
            contenders.keySet().removeIf(label -> only.stream().noneMatch(label::startsWith));
        }
        report.order.addAll(contenders.keySet());

        EmbeddedKafkaCluster cluster = null;
        String bootstrap = opts.get("bootstrap");
        if (bootstrap == null) {
            cluster = EmbeddedKafkaCluster.builder().start();
            bootstrap = cluster.bootstrapServers();
        }
        String setup = String.format("broker %s; 1 partition, %d ms route, %d slots; large: %,d records, window %d ms"
                                     + " after %d ms; small: %d records produced %d ms after the start; %d warm-up"
                                     + " + %d measured rounds, order shuffled per round with seed %d + round",
                cluster != null ? "embedded KRaft (Kafka 4.3.1) in the harness JVM" : bootstrap, sleepMs, slots,
                num("records", 60_000), num("window-ms", 6000), num("settle-ms", 2000), num("small", 400),
                num("small-settle-ms", 4000), warmups, rounds, seed);
        log.println("camel-kafka-fetch share-group benchmark — " + Report.machine());
        log.println(setup);
        try (KafkaSetup kafka = new KafkaSetup(bootstrap)) {
            String large = "bench-share-" + Long.toString(System.currentTimeMillis() % 10_000_000, 36);
            if (cases.contains(LARGE)) {
                kafka.createTopic(large, 1);
                kafka.produce(large, 1, num("records", 60_000), 100, 0);
                log("prepared %s: %,d records", large, num("records", 60_000));
            }
            for (int round = -warmups; round < rounds; round++) {
                boolean warm = round < 0;
                for (String kase : cases) {
                    List<String> order = new ArrayList<>(contenders.keySet());
                    Collections.shuffle(order, new Random(seed + round * 31L + kase.hashCode()));
                    for (String label : order) {
                        Contender c = contenders.get(label).get();
                        Work work = new Work(LARGE.equals(kase) ? num("records", 60_000) : num("small", 400),
                                sleepMs, false, 0);
                        double rate = LARGE.equals(kase)
                                ? runLarge(c, kafka.bootstrap(), large, work, warm)
                                : runSmall(c, kafka, work, sleepMs);
                        log("%s %s %s: %,.0f rec/s, route %.2f ms per record",
                                warm ? "warm-up" : "round " + (round + 1) + "/" + rounds, kase, label, rate,
                                work.meanRouteMs());
                        if (!warm) {
                            report.add(kase, label, round, rate);
                            report.addRouteTime(kase, label, work.meanRouteMs());
                            if (SMALL.equals(kase)) {
                                report.addFilledAfter(label, lastFilledAfterMs);
                            }
                        }
                    }
                }
            }
            String table = report.render();
            log.println();
            log.print(table);
            if (opts.containsKey("out")) {
                Path file = Path.of(opts.get("out")).resolve("share-" + LocalDate.now() + ".md");
                Files.createDirectories(file.getParent());
                Files.writeString(file, "# Share groups: 1 partition, " + sleepMs + " ms route\n\n" + Report.machine()
                                        + "\n\nCommand: `" + command() + "`\n\n" + setup + ".\n\n" + table);
                log.println("wrote " + file.toAbsolutePath().normalize());
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** Records per second over the window, from the settle time after the contender's first record. */
    private double runLarge(Contender c, String bootstrap, String topic, Work work, boolean warm) throws Exception {
        try {
            c.start(bootstrap, topic, "bench-share-" + UUID.randomUUID(), work);
            awaitFirst(work);
            Thread.sleep(num("settle-ms", 2000));
            long c0 = work.count();
            long from = System.nanoTime();
            if (work.awaitTarget(warm ? Math.min(3000, num("window-ms", 6000)) : num("window-ms", 6000))) {
                throw new IllegalStateException("the topic ran dry inside the window: raise --records");
            }
            return (work.count() - c0) / ((System.nanoTime() - from) / 1e9);
        } finally {
            c.stop();
        }
    }

    /** A burst of {@code --small} records onto a running contender: small / (last − first + one route time). */
    private double runSmall(Contender c, KafkaSetup kafka, Work work, long sleepMs) throws Exception {
        long small = work.target();
        String topic = "bench-share-small-" + UUID.randomUUID();
        kafka.createTopic(topic, 1);
        try {
            c.start(kafka.bootstrap(), topic, "bench-share-" + UUID.randomUUID(), work);
            Thread.sleep(num("small-settle-ms", 4000));
            BurstTimeline timeline = work.recordTimeline((int) small);
            kafka.produce(topic, 1, small, 100, 0);
            if (!work.awaitTarget(120_000)) {
                throw new IllegalStateException("only " + work.count() + " of " + small + " records within 120 s");
            }
            int slots = (int) num("slots", 32);
            log("  burst: %s", timeline.summary(slots, work.meanRouteMs()));
            lastFilledAfterMs = timeline.filledAfterMs(slots);
            return small / ((work.targetNanos() - work.firstNanos()) / 1e9 + sleepMs / 1000.0);
        } finally {
            c.stop();
        }
    }

    private static void awaitFirst(Work work) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (work.count() == 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no record within 120 s");
            }
            Thread.sleep(5);
        }
    }

    private String command() {
        StringBuilder sb = new StringBuilder("benchmarks/share.sh");
        opts.forEach((k, v) -> sb.append(" --").append(k).append(' ').append(v));
        return sb.toString();
    }

    private void log(String fmt, Object... args) {
        log.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, String.format(fmt, args));
        log.flush();
    }
}
