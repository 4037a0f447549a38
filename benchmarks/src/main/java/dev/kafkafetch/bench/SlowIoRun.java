package dev.kafkafetch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.management.OperatingSystemMXBean;

/**
 * One measured run of {@link SlowIoScenario}: records/s over a window, the peak of live platform threads, and what
 * explains a shortfall: how many records were in the route on average (below N: the supply of records was short;
 * at N: each record took longer than the route's wait), the whole JVM's CPU time per record (the broker
 * included when it runs in this JVM), and the heap the running contender holds (its live set).
 */
final class SlowIoRun {

    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory
            .getOperatingSystemMXBean();

    /**
     * @param rate              records per second over the window
     * @param workerThreads     the most live platform threads during the window, beyond those alive before the start
     *                          (virtual threads are not counted)
     * @param kafkaFetchWorkers the most live platform threads named as kafka-fetch's workers
     * @param meanRunning       kafka-fetch: the mean of the records running in the route, sampled every 100 ms over
     *                          the window; -1 for the other contenders
     * @param meanInFlight      kafka-fetch: the mean of the records polled and not finished (running or queued)
     * @param meanHeld          kafka-fetch: the mean of the records held since the committable offsets, finished or
     *                          not (what maxInFlightRecords bounds)
     * @param pauses            kafka-fetch: back-pressure pauses during the window (its window was full)
     * @param cpuMicrosPerRecord this JVM's CPU time over the window per record counted, in microseconds
     * @param liveHeapMb        the heap in use after a forced full GC at the window's end, less the same before the
     *                          contender started: what it holds with N records in flight (an in-process broker's
     *                          own growth included)
     */
    record Measured(double rate, int workerThreads, int kafkaFetchWorkers, double meanRunning, double meanInFlight,
            double meanHeld, long pauses, double cpuMicrosPerRecord, double liveHeapMb) {
    }

    private SlowIoRun() {
    }

    static Measured measure(Contender c, String bootstrap, String topic, Work work, long settleMs, long windowMs)
            throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int baseline = threads.getThreadCount();
        long heapBefore = liveHeap();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger workers = new AtomicInteger();
        try {
            c.start(bootstrap, topic, SlowIoScenario.group(), work);
            long deadline = System.currentTimeMillis() + 120_000;
            while (work.count() == 0) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("no record within 120 s");
                }
                Thread.sleep(5);
            }
            Thread.sleep(settleMs);
            long c0 = work.count();
            long cpu0 = OS.getProcessCpuTime();
            CpuByThread byThread = CpuByThread.enabled() ? new CpuByThread() : null;
            long from = System.nanoTime();
            long end = from + windowMs * 1_000_000;
            long samples = 0;
            long running = 0;
            long inFlight = 0;
            long held = 0;
            long pauses0 = c.backPressurePauses();
            while (System.nanoTime() < end) {
                peak.accumulateAndGet(threads.getThreadCount() - baseline, Math::max);
                workers.accumulateAndGet(kafkaFetchWorkers(), Math::max);
                samples++;
                running += c.running();
                inFlight += c.inFlight();
                held += c.held();
                if (work.awaitTarget(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000)))) {
                    throw new IllegalStateException("the topic ran dry inside the window: raise --records");
                }
            }
            long counted = work.count() - c0;
            double seconds = (System.nanoTime() - from) / 1e9;
            long cpu = OS.getProcessCpuTime() - cpu0;
            if (byThread != null) {
                System.out.print(byThread.report(Math.max(1, counted)));
            }
            long pauses = c.backPressurePauses() - pauses0;
            long liveHeap = liveHeap() - heapBefore;
            return new Measured(counted / seconds, peak.get(), workers.get(),
                    (double) running / samples, (double) inFlight / samples, (double) held / samples, pauses,
                    counted == 0 ? 0 : cpu / 1e3 / counted, liveHeap / 1e6);
        } finally {
            c.stop();
        }
    }

    /** The heap in use right after a full collection ({@code System.gc()}: a full GC with G1), in bytes. */
    private static long liveHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static int kafkaFetchWorkers() {
        Thread[] all = new Thread[Thread.activeCount() * 2 + 64];
        int n = Thread.enumerate(all);
        int workers = 0;
        for (int i = 0; i < n; i++) {
            if (all[i].getName().contains("KafkaFetchWorker[")) {
                workers++;
            }
        }
        return workers;
    }
}
