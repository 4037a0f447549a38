package dev.kafkafetch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;

/** One measured run of {@link SlowIoScenario}: records/s over a window, and the peak of live platform threads. */
final class SlowIoRun {

    /**
     * @param rate          records per second over the window
     * @param workerThreads the most live platform threads during the window, beyond those alive before the start
     *                      (virtual threads are not counted)
     * @param kafkaFetchWorkers the most live platform threads named as kafka-fetch's workers
     */
    record Measured(double rate, int workerThreads, int kafkaFetchWorkers) {
    }

    private SlowIoRun() {
    }

    static Measured measure(Contender c, String bootstrap, String topic, Work work, long settleMs, long windowMs)
            throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int baseline = threads.getThreadCount();
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
            long from = System.nanoTime();
            long end = from + windowMs * 1_000_000;
            while (System.nanoTime() < end) {
                peak.accumulateAndGet(threads.getThreadCount() - baseline, Math::max);
                workers.accumulateAndGet(kafkaFetchWorkers(), Math::max);
                if (work.awaitTarget(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000)))) {
                    throw new IllegalStateException("the topic ran dry inside the window: raise --records");
                }
            }
            return new Measured((work.count() - c0) / ((System.nanoTime() - from) / 1e9), peak.get(), workers.get());
        } finally {
            c.stop();
        }
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
