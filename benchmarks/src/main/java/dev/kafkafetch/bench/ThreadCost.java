package dev.kafkafetch.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * CPU time and heap allocation of the threads a contender started, between {@link #begin()} and {@link #end()}.
 * Threads alive before the contender started (the harness, the admin client, an in-process broker) are left out, so
 * the figures are the consumer's own cost per record, whatever the broker costs. A thread that ends inside the window
 * loses what it did after {@code begin()}; the contenders' threads live as long as the contender.
 */
final class ThreadCost {

    private static final com.sun.management.ThreadMXBean MX = (com.sun.management.ThreadMXBean) ManagementFactory
            .getThreadMXBean();

    private final Set<Long> excluded;
    private Map<Long, long[]> start = Map.of();
    private long cpuNanos;
    private long allocatedBytes;

    private ThreadCost(Set<Long> excluded) {
        this.excluded = excluded;
    }

    /** Call just before the contender starts: every thread alive now is not the contender's. */
    static ThreadCost excludingLiveThreads() {
        MX.setThreadCpuTimeEnabled(true);
        MX.setThreadAllocatedMemoryEnabled(true);
        Set<Long> ids = new HashSet<>();
        for (long id : MX.getAllThreadIds()) {
            ids.add(id);
        }
        return new ThreadCost(ids);
    }

    void begin() {
        start = sample();
    }

    void end() {
        Map<Long, long[]> now = sample();
        long cpu = 0;
        long alloc = 0;
        for (Map.Entry<Long, long[]> e : now.entrySet()) {
            long[] s = start.getOrDefault(e.getKey(), new long[2]);
            cpu += Math.max(0, e.getValue()[0] - s[0]);
            alloc += Math.max(0, e.getValue()[1] - s[1]);
        }
        cpuNanos = cpu;
        allocatedBytes = alloc;
    }

    /**
     * CPU time (user + system) of the broker's JVM so far, when it runs apart ({@code -Dbench.broker.pid}, set by
     * {@code run.sh --broker-jvm}); -1 otherwise.
     */
    static long brokerCpuNanos() {
        String pid = System.getProperty("bench.broker.pid");
        if (pid == null) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields 14 and 15 of /proc/<pid>/stat (utime, stime) in clock ticks of 10 ms
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    long cpuNanos() {
        return cpuNanos;
    }

    long allocatedBytes() {
        return allocatedBytes;
    }

    private Map<Long, long[]> sample() {
        long[] all = MX.getAllThreadIds();
        long[] ids = new long[all.length];
        int n = 0;
        for (long id : all) {
            if (!excluded.contains(id)) {
                ids[n++] = id;
            }
        }
        long[] mine = Arrays.copyOf(ids, n);
        long[] cpu = MX.getThreadCpuTime(mine);
        long[] alloc = MX.getThreadAllocatedBytes(mine);
        Map<Long, long[]> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (cpu[i] >= 0 && alloc[i] >= 0) {
                m.put(mine[i], new long[] { cpu[i], alloc[i] });
            }
        }
        return m;
    }
}
