package dev.kafkafetch.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.management.GarbageCollectionNotificationInfo;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Scenario 4's child JVM: runs one contender over a backlog and prints one {@code RESULT key=value ...} line with
 * the largest heap left live after a GC (from GC notifications), the peak heap in use (sampled every 10 ms), the
 * process RSS high-water mark (VmHWM), the throughput and, for kafka-fetch, the most records seen in flight.
 * <p>
 * Arguments: bootstrap topic partitions records contenderSpec groupId verify [camelKafkaExtra]
 */
public final class MemoryProbe {

    static final String RESULT = "RESULT ";

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

        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        AtomicLong afterGcMax = new AtomicLong();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
                            .from((CompositeData) n.getUserData());
                    long used = 0;
                    for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        if (heapPools.contains(e.getKey())) {
                            used += e.getValue().getUsed();
                        }
                    }
                    afterGcMax.accumulateAndGet(used, Math::max);
                }
            }, null, null);
        }

        Work work = new Work(records, 0, verify, 0);
        Contender contender = spec.create(camelKafkaExtra);
        AtomicLong heapPeak = new AtomicLong();
        AtomicLong inFlightMax = new AtomicLong(-1);
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
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
        } finally {
            contender.stop();
            sampler.interrupt();
        }
        if (!done) {
            System.err.println(spec.label() + " consumed only " + work.count() + " of " + records);
            System.exit(2);
        }
        double seconds = (work.targetNanos() - work.firstNanos()) / 1e9;
        System.out.printf("%sconsumed=%d distinct=%d heapAfterGcMaxMb=%.1f heapUsedPeakMb=%.1f rssHwmMb=%.1f"
                          + " recordsPerSec=%.0f maxInFlight=%d partitions=%d%n",
                RESULT, work.count(), work.distinct(),
                afterGcMax.get() / 1048576.0, heapPeak.get() / 1048576.0, vmHwmKb() / 1024.0,
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
