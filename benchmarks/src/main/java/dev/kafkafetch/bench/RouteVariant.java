package dev.kafkafetch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * What the route of a throughput scenario does per record besides counting it (and sleeping, in S3/S7). The same
 * for every contender: {@link #HEADERS} reads the record's key and partition through each contender's own API (the
 * Camel headers {@code CamelKafkaKey} and {@code CamelKafkaPartition} for camel-kafka and kafka-fetch, the
 * {@code ConsumerRecord} for the plain loop and Parallel Consumer); {@link #CPU} runs a fixed loop of arithmetic
 * calibrated once per JVM to about {@link #CPU_TARGET_NANOS} of CPU time.
 */
enum RouteVariant {

    /** Counts the record and reads nothing (kafka-fetch then builds no header at all). */
    PLAIN("plain", "counts the record, reads no header"),
    /** Reads the key and the partition. */
    HEADERS("headers", "reads CamelKafkaKey and CamelKafkaPartition (ConsumerRecord.key()/partition() outside Camel)"),
    /** Burns about 5 us of CPU. */
    CPU("cpu", "burns ~5 us of CPU (a calibrated arithmetic loop)");

    static final long CPU_TARGET_NANOS = 5_000;

    private final String id;
    private final String description;

    RouteVariant(String id, String description) {
        this.id = id;
        this.description = description;
    }

    String id() {
        return id;
    }

    String description() {
        return description;
    }

    static RouteVariant parse(String s) {
        for (RouteVariant r : values()) {
            if (r.id.equals(s.trim().toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        throw new IllegalArgumentException("Unknown route '" + s + "' (plain, headers or cpu)");
    }

    /** Runs {@code iterations} rounds of a xorshift generator and returns its state (so no JIT can drop the loop). */
    static long spin(long seed, long iterations) {
        long x = seed | 1;
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** Iterations of {@link #spin} that take about {@link #CPU_TARGET_NANOS} of CPU on this machine. */
    static long cpuIterations() {
        return Calibration.ITERATIONS;
    }

    /** Measured once per JVM, on first use: a warm-up (JIT) then 100 ms of spinning timed in thread CPU time. */
    private static final class Calibration {

        static final long ITERATIONS = calibrate();

        private static long calibrate() {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long sink = 0;
            long chunk = 10_000;
            for (int i = 0; i < 2_000; i++) {
                sink += spin(i, chunk);
            }
            long iterations = 0;
            long c0 = mx.getCurrentThreadCpuTime();
            long c1 = c0;
            while (c1 - c0 < 100_000_000L) {
                sink += spin(iterations, chunk);
                iterations += chunk;
                c1 = mx.getCurrentThreadCpuTime();
            }
            long n = Math.max(1, iterations * CPU_TARGET_NANOS / (c1 - c0));
            return sink == 42 ? n + 1 : n;
        }
    }
}
