package dev.kafkafetch.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 4's child JVM: runs one contender over a backlog and prints one {@code RESULT key=value ...} line with
 * the live set (the heap in use right after a forced full GC, at 25, 50 and 75 % of the backlog consumed, the
 * largest of the three), the peak heap in use (sampled every 10 ms), the process RSS high-water mark (VmHWM), the
 * throughput (which the forced GCs slow down a little, alike for all) and, for kafka-fetch, the most records seen in
 * flight.
 * <p>
 * Arguments: bootstrap topic partitions records contenderSpec groupId verify [camelKafkaExtra]
 */
public final class MemoryProbe {

    static final String RESULT = "RESULT ";
    /** Shares of the backlog consumed at which the live set is measured. */
    static final double[] CHECKPOINTS = { 0.25, 0.5, 0.75 };

    private MemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        String bootstrap = args[0];
        String topic = args[1];
        int partitions = Integer.parseInt(args[2]);
        long records = Long.parseLong(args[3]);
        ContenderSpec spec = ContenderSpec.parse(args[4]);
        String group = args[5];
        boolean verify = Boolean.parseBoolean(args[6]);
        String camelKafkaExtra = args.length > 7 ? args[7] : "";

        Work work = new Work(records, 0, verify, 0);
        Contender contender = spec.create(camelKafkaExtra);
        AtomicLong heapPeak = new AtomicLong();
        AtomicLong inFlightMax = new AtomicLong(-1);
        AtomicLong liveMax = new AtomicLong(-1);
        AtomicInteger checkpoints = new AtomicInteger();
        Thread sampler = new Thread(() -> {
            int next = 0;
            while (!Thread.currentThread().isInterrupted()) {
                if (next < CHECKPOINTS.length && work.count() >= CHECKPOINTS[next] * records) {
                    // live set: what a forced full GC (System.gc() is a full collection with G1) leaves
                    ManagementFactory.getMemoryMXBean().gc();
                    liveMax.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                            Math::max);
                    checkpoints.incrementAndGet();
                    next++;
                }
                heapPeak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                        Math::max);
                inFlightMax.accumulateAndGet(contender.inFlight(), Math::max);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-sampler");
        sampler.setDaemon(true);
        sampler.start();

        boolean done;
        try {
            contender.start(bootstrap, topic, group, work);
            done = work.awaitTarget(600_000);
            if (checkpoints.get() == 0) {
                // a backlog consumed faster than the sampler looked: one checkpoint with the contender still up
                ManagementFactory.getMemoryMXBean().gc();
                liveMax.set(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                checkpoints.incrementAndGet();
            }
        } finally {
            contender.stop();
            sampler.interrupt();
        }
        if (!done) {
            System.err.println(spec.label() + " consumed only " + work.count() + " of " + records);
            System.exit(2);
        }
        double seconds = (work.targetNanos() - work.firstNanos()) / 1e9;
        System.out.printf("%sconsumed=%d distinct=%d liveSetMaxMb=%.1f checkpoints=%d heapUsedPeakMb=%.1f"
                          + " rssHwmMb=%.1f recordsPerSec=%.0f maxInFlight=%d partitions=%d%n",
                RESULT, work.count(), work.distinct(), liveMax.get() / 1048576.0, checkpoints.get(),
                heapPeak.get() / 1048576.0, vmHwmKb() / 1024.0,
                seconds > 0 ? records / seconds : 0, inFlightMax.get(), partitions);
        System.out.flush();
        System.exit(0);
    }

    /** Peak resident set size of this process in kB (Linux /proc/self/status VmHWM), -1 when unavailable. */
    static long vmHwmKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }
}
