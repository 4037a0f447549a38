package dev.kafkafetch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;

/**
 * Diagnostics for {@link SlowIoRun} ({@code -Dslowio.cpuByThread=true}): the CPU time of the JVM's platform threads
 * over a window, grouped by thread name with digits blanked, and what the process spent beyond them (GC, JIT, the
 * VM). Virtual threads are charged to their carriers ({@code ForkJoinPool-#-worker-#}). A thread that ended inside
 * the window is left out.
 */
final class CpuByThread {

    private static final ThreadMXBean MX = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory
            .getOperatingSystemMXBean();

    private final Map<Long, Long> start = new HashMap<>();
    private final long process0;

    CpuByThread() {
        MX.setThreadCpuTimeEnabled(true);
        long[] ids = MX.getAllThreadIds();
        long[] cpu = MX.getThreadCpuTime(ids);
        for (int i = 0; i < ids.length; i++) {
            start.put(ids[i], cpu[i]);
        }
        process0 = OS.getProcessCpuTime();
    }

    static boolean enabled() {
        return Boolean.getBoolean("slowio.cpuByThread");
    }

    /** The groups' CPU over the window per record counted, in microseconds, largest first. */
    String report(long records) {
        long process = OS.getProcessCpuTime() - process0;
        long[] ids = MX.getAllThreadIds();
        long[] cpu = MX.getThreadCpuTime(ids);
        ThreadInfo[] infos = MX.getThreadInfo(ids);
        Map<String, long[]> groups = new TreeMap<>();
        long threads = 0;
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] == null || cpu[i] < 0) {
                continue;
            }
            long used = cpu[i] - start.getOrDefault(ids[i], 0L);
            threads += used;
            String name = infos[i].getThreadName().replaceAll("\\d+", "#");
            long[] g = groups.computeIfAbsent(name, k -> new long[2]);
            g[0] += used;
            g[1]++;
        }
        StringBuilder sb = new StringBuilder(String.format("CPU per record (us): process %.1f, platform threads %.1f,"
                                                           + " GC/JIT/VM/ended threads %.1f%n",
                process / 1e3 / records, threads / 1e3 / records, (process - threads) / 1e3 / records));
        groups.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0])).limit(15)
                .forEach(e -> sb.append(String.format("  %6.2f  %4d x %s%n", e.getValue()[0] / 1e3 / records,
                        e.getValue()[1], e.getKey())));
        return sb.toString();
    }
}
