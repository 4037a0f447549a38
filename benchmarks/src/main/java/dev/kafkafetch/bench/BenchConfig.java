package dev.kafkafetch.bench;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** Record counts, rounds and durations of a benchmark run; {@link #full()} and {@link #smoke()} are the presets. */
final class BenchConfig {

    boolean smoke;
    Set<Integer> scenarios = new TreeSet<>(List.of(1, 2, 3, 4, 5, 6, 7, 8));
    int warmups = 1;
    int rounds = 5;
    /** Seeds the per-round shuffle of the contenders (and the Zipf / hot-key draws); printed with the results. */
    long seed = new SecureRandom().nextLong();
    /** What the route does per record in the throughput scenarios (S1, S2, S3, S7); each listed variant runs. */
    List<RouteVariant> routes = new ArrayList<>(List.of(RouteVariant.PLAIN, RouteVariant.HEADERS, RouteVariant.CPU));
    /**
     * Key distributions of the KEY scenarios (S3, S7): "cyclic" runs with every route of {@link #routes}, each
     * further one with the first route listed.
     */
    List<String> keyDists = new ArrayList<>(List.of("cyclic", "zipf", "hot"));
    double zipfExponent = KeyDistribution.DEFAULT_ZIPF_EXPONENT;
    double hotShare = KeyDistribution.DEFAULT_HOT_SHARE;
    /** Track distinct (partition, offset) per run and require every record: the smoke test's check. */
    boolean verify;
    boolean parallelConsumer = true;
    /** {@code --kf-twin k=v&k2=v2}: every kafka-fetch contender also runs with these options, in the same rounds. */
    String kfTwin = "";
    /** Only contenders of these kinds (empty = all), e.g. for profiling one of them. */
    Set<String> only = new TreeSet<>();
    /** Appended to camel-kafka URIs; only smoke mode sets it (a shorter pollTimeoutMs so stops don't take 5 s). */
    String camelKafkaExtra = "";

    int valueSize = 100;

    /**
     * S1/S2 steady state: each run skips its first {@code steadyWarmupMs} of consuming, then measures
     * {@code steadyWindowMs} in slices of {@code sliceMs}; 0 = time every record (smoke mode).
     */
    long steadyWarmupMs = 2000;
    long steadyWindowMs = 6000;
    long sliceMs = 500;

    long s1Records = 30_000_000;
    /** more than S1: the plain loop with two consumers reads about 8.5 M records/s on a quiet machine */
    long s2Records = 100_000_000;
    int s2Partitions = 8;
    int s2Consumers = 2;

    int s3Partitions = 4;
    int s3Keys = 1000;
    long s3Records = 200_000;
    long s3SleepMs = 10;
    long s3WindowMs = 4000;
    long s3WarmupWindowMs = 1000;
    /** S3/S7: each run's window starts this long after full assignment (its first records skipped). */
    long fixedWindowSkipMs = 1000;
    List<Integer> s3Concurrency = new ArrayList<>(List.of(16, 64, 256));

    long s4Records = 1_000_000;
    int s4ValueSize = 1024;
    int s4Partitions = 4;
    int s4MaxInFlight = 10_000;
    int s4Rounds = 1;
    String s4Xmx = "1g";

    int s5Rate = 2000;
    int s5Seconds = 10;
    int s5Partitions = 4;
    int s5WarmupSeconds = 3;

    long s7Records = 200_000;
    List<Integer> s7Concurrency = new ArrayList<>(List.of(64, 256));

    /** S8 (Camel's floor, no Kafka): measured time per variant and round, after a warm-up of the same length. */
    long s8RunMs = 3000;

    int s6Rounds = 3;
    long s6IdleMs = 1500;

    long drainTimeoutMs = 300_000;

    Path out;
    /** The harness's command-line arguments, as the results file repeats them. */
    String arguments = "";
    /** An existing broker; null = start an embedded one. */
    String bootstrap;

    static BenchConfig full() {
        return new BenchConfig();
    }

    /** Tiny counts so that every scenario and contender runs in well under a minute; every record must arrive. */
    static BenchConfig smoke() {
        BenchConfig c = new BenchConfig();
        c.smoke = true;
        c.verify = true;
        c.warmups = 0;
        c.rounds = 1;
        // the header-reading route (the plain route is the one of S4-S6; the cpu route only adds a loop to Work)
        c.routes = new ArrayList<>(List.of(RouteVariant.HEADERS));
        c.keyDists = new ArrayList<>(List.of("cyclic", "hot"));
        c.steadyWindowMs = 0;
        c.s1Records = 2_000;
        c.s2Records = 4_000;
        c.s3Records = 320;
        c.s3WindowMs = 60_000; // drains the tiny topic well before this
        c.fixedWindowSkipMs = 0;
        c.s3Concurrency = new ArrayList<>(List.of(16));
        c.s4Records = 2_000;
        c.s4Xmx = "256m";
        c.s5Rate = 500;
        c.s5Seconds = 1;
        c.s6Rounds = 1;
        c.s6IdleMs = 200;
        c.s7Records = 320;
        c.s7Concurrency = new ArrayList<>(List.of(64));
        c.s8RunMs = 200;
        c.drainTimeoutMs = 60_000;
        c.camelKafkaExtra = "&pollTimeoutMs=500";
        return c;
    }

    /** The routes, the key distributions and the seed, in words. */
    String describeVariants() {
        StringBuilder sb = new StringBuilder("routes (S1, S2, S3, S7):");
        for (RouteVariant r : routes) {
            sb.append(' ').append(r.id()).append(" = ").append(r.description()).append(';');
        }
        if (routes.contains(RouteVariant.CPU)) {
            sb.append(String.format(Locale.ROOT, " (%,d iterations calibrated to 5 us here);",
                    RouteVariant.cpuIterations()));
        }
        sb.append(" KEY scenarios' keys:");
        for (String k : keyDists) {
            sb.append(' ').append(KeyDistribution.of(k, s3Keys, zipfExponent, hotShare, seed).describe()).append(';');
        }
        return sb.append(" seed ").append(seed).toString();
    }

    String describe() {
        if (smoke) {
            return "smoke mode (tiny counts, 1 round, no warm-up, camel-kafka pollTimeoutMs=500; figures are meaningless); "
                   + describeVariants();
        }
        return describeVariants() + "; " + String.format(Locale.ROOT, "%d warm-up + %d measured round(s) per contender,"
                                                                      + " shuffled per round (seeded), median;"
                                                                      + " S1 %,d records (1 partition); S2 %,d records (%d partitions, %d consumers);"
                                                                      + " S1/S2 steady state: skip %.1f s, measure %.1f s in %d ms slices;"
                                                                      + " S3 %d ms route, %d partitions, %,d keys, %d ms window per run from %d ms"
                                                                      + " after assignment;"
                                                                      + " S4 %,d x %d B, maxInFlightRecords=%d, child JVM -Xmx%s; S5 %d rec/s for %d s"
                                                                      + " (warm-up %d s); S6 %d rounds, %d ms idle; S7 %,d records, 1 partition,"
                                                                      + " concurrency %s; S8 %d ms per variant and round",
                warmups, rounds, s1Records, s2Records, s2Partitions, s2Consumers, steadyWarmupMs / 1e3,
                steadyWindowMs / 1e3, sliceMs, s3SleepMs, s3Partitions, s3Keys, s3WindowMs, fixedWindowSkipMs,
                s4Records, s4ValueSize,
                s4MaxInFlight, s4Xmx, s5Rate, s5Seconds, s5WarmupSeconds, s6Rounds, s6IdleMs, s7Records,
                s7Concurrency, s8RunMs);
    }
}
