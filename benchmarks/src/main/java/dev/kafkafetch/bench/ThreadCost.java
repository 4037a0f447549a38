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

import com.sun.management.OperatingSystemMXBean;

/**
 * CPU time and heap allocation of the threads a contender started, between {@link #begin()} and {@link #end()}.
 * Threads alive before the contender started (the harness, the admin client, an in-process broker) are left out, so
 * the figures are the consumer's own cost per record, whatever the broker costs. A thread that ends inside the window
 * loses what it did after {@code begin()}; the contenders' threads live as long as the contender.
 * <p>
 * {@link #jvmCpuNanos()} is the whole JVM's CPU time over the window (the process CPU time, which counts the GC and
 * JIT threads and every other thread of the VM) minus that of the threads alive before the contender started: the
 * contender's cost including the GC and JIT work of the JVM. With the broker inside this JVM, the GC work of the
 * broker's allocation is charged to the contender too ({@code run.sh --broker-jvm} keeps it out).
 */
final class ThreadCost {

    private static final com.sun.management.ThreadMXBean MX = (com.sun.management.ThreadMXBean) ManagementFactory
            .getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory
            .getOperatingSystemMXBean();

    private final Set<Long> excluded;
    private Map<Long, long[]> start = Map.of();
    private long cpuNanos;
    private long allocatedBytes;
    private long process0;
    private long[] otherIds = new long[0];
    private long[] others0 = new long[0];
    private long jvmCpuNanos;
    private int threads;

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

    /** Starts the window; the contender's threads may start after this (their CPU then counts from their start). */
    void begin() {
        process0 = OS.getProcessCpuTime();
        otherIds = excluded.stream().mapToLong(Long::longValue).toArray();
        others0 = MX.getThreadCpuTime(otherIds);
        start = sample();
    }

    void end() {
        Map<Long, long[]> now = sample();
        long[] others1 = MX.getThreadCpuTime(otherIds);
        long process1 = OS.getProcessCpuTime();
        long others = 0;
        for (int i = 0; i < otherIds.length; i++) {
            if (others0[i] >= 0 && others1[i] >= 0) {
                others += others1[i] - others0[i];
            }
        }
        jvmCpuNanos = process0 >= 0 && process1 >= 0 ? Math.max(0, process1 - process0 - others) : -1;
        threads = now.size();
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

    /** CPU of the whole JVM over the window minus the threads that are not the contender's; -1 if unknown. */
    long jvmCpuNanos() {
        return jvmCpuNanos;
    }

    /** The contender's live Java threads at {@link #end()} (GC and JIT threads are not Java threads). */
    int threads() {
        return threads;
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
