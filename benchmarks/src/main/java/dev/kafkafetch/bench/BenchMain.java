package dev.kafkafetch.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaLogging;

/**
 * Command line entry point of the benchmark harness.
 *
 * <pre>
 *   --all                 every scenario, full record counts (default)
 *   --smoke               every scenario with tiny counts (seconds; figures meaningless)
 *   --scenarios 1,3,6     only these scenarios (1-8; 8 = Camel's own floor, no Kafka)
 *   --bootstrap host:port use an existing broker instead of starting an embedded KRaft broker
 *   --out DIR             where results-&lt;date&gt;.md/.csv and scenario3.png go (default: src/benchmarks)
 *   --rounds N --warmups N --s1-records N --s2-records N --s3-records N --s3-window-ms N
 *   --window-skip-ms N    S3/S7: each window starts N ms after assignment (default 1000; smoke 0)
 *   --concurrency 16,64,256 --s4-records N --s4-xmx 1g --s5-rate N --s5-seconds N --s6-rounds N
 *   --steady-warmup-ms N --steady-window-ms N (S1/S2; 0 = time every record) --s7-records N --s8-run-ms N
 *   --no-parallel-consumer
 *   --routes plain,headers,cpu   route variants of S1, S2, S3, S7 (default all three; smoke: headers)
 *   --key-dists cyclic,zipf,hot  key distributions of S3/S7 (cyclic with every route, the others with the first;
 *                         smoke: cyclic,hot)
 *   --zipf-exponent 1.0 --hot-share 0.5   the Zipf exponent and the hot key's share of the records
 *   --seed N              seeds the per-round shuffle and the key draws (default random; printed)
 *   --only kafka-fetch,plain-loop   only these contender kinds or labels ("kafka-fetch mc=1 PARTITION"), e.g. to profile
 *   --kf-twin 'k=v&amp;k2=v2'  every kafka-fetch contender runs twice in the same rounds, the twin with these options:
 *                         an option's cost as a same-run ratio (e.g. finishedCommitIntervalMs=0)
 * </pre>
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        quietLogs();
        BenchConfig cfg = parse(args);
        int code = run(cfg, null, System.out) != null ? 0 : 1;
        System.exit(code);
    }

    static void quietLogs() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("java.awt.headless", "true");
        KafkaLogging.quietBrokerLogs();
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /**
     * Runs the configured scenarios against {@code bootstrap} (or a new embedded broker when null) and writes the
     * reports to {@code cfg.out} when set. Returns the results.
     */
    static List<Result> run(BenchConfig cfg, String bootstrap, PrintStream out) throws Exception {
        String bs = bootstrap != null ? bootstrap : cfg.bootstrap;
        EmbeddedKafkaCluster cluster = null;
        String brokerDesc;
        long t0 = System.nanoTime();
        String load = Report.loadAverage();
        if (bs == null) {
            cluster = EmbeddedKafkaCluster.builder().start();
            bs = cluster.bootstrapServers();
            brokerDesc = "embedded KRaft broker (1 combined node, Kafka 4.3.1) in the harness JVM at " + bs;
        } else {
            String pid = System.getProperty("bench.broker.pid");
            brokerDesc = pid != null
                    ? "embedded KRaft broker (1 combined node, Kafka 4.3.1) in a JVM of its own (run.sh --broker-jvm, pid "
                      + pid + ") at " + bs
                    : "external broker at " + bs;
        }
        out.println("camel-kafka-fetch benchmarks — " + Report.machine());
        out.println(brokerDesc);
        out.println(cfg.describe());
        out.println("load average " + load);
        try (KafkaSetup kafka = new KafkaSetup(bs)) {
            Harness harness = new Harness(cfg, kafka, out);
            List<Result> results = harness.run();
            Report report = new Report(results, cfg, brokerDesc, load, harness.failures());
            out.println();
            out.print(report.consoleTable());
            out.println();
            report.targets().forEach(t -> out.println("* " + t.replace("**", "")));
            out.println("load average at the start " + load + ", at the end " + Report.loadAverage());
            if (cfg.out != null) {
                for (Path p : report.write(cfg.out)) {
                    out.println("wrote " + p.toAbsolutePath().normalize());
                }
            }
            out.printf("total %.1f s%n", (System.nanoTime() - t0) / 1e9);
            if (!harness.failures().isEmpty()) {
                throw new IllegalStateException("scenarios failed (the others were written): " + harness.failures());
            }
            return results;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    static BenchConfig parse(String[] args) {
        boolean smoke = false;
        for (String a : args) {
            smoke |= a.equals("--smoke");
        }
        BenchConfig c = smoke ? BenchConfig.smoke() : BenchConfig.full();
        c.arguments = String.join(" ", args);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--all":
                case "--smoke":
                    break;
                case "--scenarios":
                    c.scenarios = new TreeSet<>(ints(args[++i]));
                    break;
                case "--bootstrap":
                    c.bootstrap = args[++i];
                    break;
                case "--out":
                    c.out = Path.of(args[++i]);
                    break;
                case "--rounds":
                    c.rounds = Integer.parseInt(args[++i]);
                    break;
                case "--warmups":
                    c.warmups = Integer.parseInt(args[++i]);
                    break;
                case "--s1-records":
                    c.s1Records = Long.parseLong(args[++i]);
                    break;
                case "--s2-records":
                    c.s2Records = Long.parseLong(args[++i]);
                    break;
                case "--s3-records":
                    c.s3Records = Long.parseLong(args[++i]);
                    break;
                case "--s3-window-ms":
                    c.s3WindowMs = Long.parseLong(args[++i]);
                    break;
                case "--window-skip-ms":
                    c.fixedWindowSkipMs = Long.parseLong(args[++i]);
                    break;
                case "--concurrency":
                    c.s3Concurrency = ints(args[++i]);
                    break;
                case "--s4-records":
                    c.s4Records = Long.parseLong(args[++i]);
                    break;
                case "--s4-xmx":
                    c.s4Xmx = args[++i];
                    break;
                case "--s5-rate":
                    c.s5Rate = Integer.parseInt(args[++i]);
                    break;
                case "--s5-seconds":
                    c.s5Seconds = Integer.parseInt(args[++i]);
                    break;
                case "--steady-warmup-ms":
                    c.steadyWarmupMs = Long.parseLong(args[++i]);
                    break;
                case "--steady-window-ms":
                    c.steadyWindowMs = Long.parseLong(args[++i]);
                    break;
                case "--s7-records":
                    c.s7Records = Long.parseLong(args[++i]);
                    break;
                case "--s8-run-ms":
                    c.s8RunMs = Long.parseLong(args[++i]);
                    break;
                case "--s6-rounds":
                    c.s6Rounds = Integer.parseInt(args[++i]);
                    break;
                case "--only":
                    c.only = new TreeSet<>(List.of(args[++i].split(",")));
                    break;
                case "--routes":
                    c.routes = new ArrayList<>();
                    for (String r : args[++i].split(",")) {
                        c.routes.add(RouteVariant.parse(r));
                    }
                    break;
                case "--key-dists":
                    c.keyDists = new ArrayList<>(List.of(args[++i].split(",")));
                    c.keyDists.forEach(k -> KeyDistribution.of(k, 1, 1, 0.5, 0)); // fails on an unknown name
                    break;
                case "--zipf-exponent":
                    c.zipfExponent = Double.parseDouble(args[++i]);
                    break;
                case "--hot-share":
                    c.hotShare = Double.parseDouble(args[++i]);
                    break;
                case "--seed":
                    c.seed = Long.parseLong(args[++i]);
                    break;
                case "--kf-twin":
                    c.kfTwin = args[++i];
                    break;
                case "--no-parallel-consumer":
                    c.parallelConsumer = false;
                    break;
                default:
                    throw new IllegalArgumentException("Unknown argument " + a + " (see BenchMain's javadoc)");
            }
        }
        return c;
    }

    private static List<Integer> ints(String csv) {
        List<Integer> l = new ArrayList<>();
        for (String s : csv.split(",")) {
            if (!s.isBlank()) {
                l.add(Integer.parseInt(s.trim()));
            }
        }
        return l;
    }
}
