package dev.kafkafetch.it.dispatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ThreadPoolProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An asynchronous route gives its worker thread back at once, so thousands of records in flight run on far fewer threads:
 * the worker pool queues each record for the threads already busy and adds one only when none is busy or every busy
 * one is held by its task, also when a completion on another thread hands a key's next record on. The routes' delayer has no bound on what it holds: Camel's default one holds 1,000
 * exchanges and delays every one beyond that by sleeping on the calling thread, which would make the route a blocking
 * one from the 1,001st record in the delay on.
 */
class AsyncRouteThreadsIT extends KafkaFetchITSupport {

    private static final int RECORDS = 2000;

    @Test
    void asyncRouteWithThousandsInFlightRunsOnFewThreads() throws Exception {
        String topic = KafkaTestSupport.uniqueName("async");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, RECORDS, "a", 100);
        Recorder recorder = new Recorder();
        AtomicLong firstStart = new AtomicLong();
        AtomicInteger inDelay = new AtomicInteger();
        AtomicInteger peakInDelay = new AtomicInteger();
        WorkerThreads workers = new WorkerThreads("KafkaFetchWorker[" + topic + "]");
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=" + RECORDS + "&ordering=UNORDERED"))
                        .process(e -> {
                            firstStart.compareAndSet(0, System.nanoTime());
                            peakInDelay.accumulateAndGet(inDelay.incrementAndGet(), Math::max);
                        })
                        .delay(100).asyncDelayed().executorService(unboundedDelayer(getContext()))
                        .process(e -> inDelay.decrementAndGet())
                        .process(recorder);
            }
        });
        workers.start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> recorder.ids().size() >= RECORDS);
        } finally {
            workers.stop();
        }
        double seconds = (System.nanoTime() - firstStart.get()) / 1e9;
        System.out.printf("%d records x 100 ms async, maxConcurrency=%d: %.1f s (one at a time: %d s),"
                          + " %d in the delay at once, at most %d worker threads alive%n",
                RECORDS, RECORDS, seconds, RECORDS / 10, peakInDelay.get(), workers.peak());
        // premise: thousands were in flight at once, not a few at a time
        assertThat(peakInDelay.get()).as("records in the delay at once").isGreaterThan(500);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        // far fewer than one thread per record in flight (before the worker pool: 2,000); how many a burst starts
        // depends on how fast the first ones come free (3-24 seen; 151 once, probably while Camel's default delayer still
        // slept on the worker for every exchange beyond its 1,000)
        assertThat(workers.peak()).as("live worker threads").isPositive().isLessThanOrEqualTo(RECORDS / 10);
        // well over 10x faster than the 200 s one at a time would take (a wide margin for 2 loaded cores)
        assertThat(seconds).isLessThan(20);
    }

    @Test
    void completionsOnAnotherThreadHandEachKeysNextRecordOnWithoutANewThread() throws Exception {
        String topic = KafkaTestSupport.uniqueName("async-key");
        kafka.createTopic(topic, 1);
        int keys = 200;
        List<String> produced = kafka.produceIds(topic, RECORDS, "k", keys);
        Recorder recorder = new Recorder();
        AtomicInteger inDelay = new AtomicInteger();
        AtomicInteger peakInDelay = new AtomicInteger();
        Set<String> delayThreads = ConcurrentHashMap.newKeySet();
        WorkerThreads workers = new WorkerThreads("KafkaFetchWorker[" + topic + "]");
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=" + RECORDS + "&ordering=KEY"))
                        .process(e -> peakInDelay.accumulateAndGet(inDelay.incrementAndGet(), Math::max))
                        .delay(100).asyncDelayed().executorService(unboundedDelayer(getContext()))
                        .process(e -> {
                            delayThreads.add(Thread.currentThread().getName());
                            inDelay.decrementAndGet();
                        })
                        .process(recorder);
            }
        });
        workers.start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> recorder.ids().size() >= RECORDS);
        } finally {
            workers.stop();
        }
        System.out.printf("%d records on %d keys x 100 ms async, KEY: %d in the delay at once, at most %d worker"
                          + " threads alive%n",
                RECORDS, keys, peakInDelay.get(), workers.peak());
        // premise: the keys ran side by side, and every record after a key's first was handed on by the completion of
        // the one before it, on a thread of Camel's delayer, never a worker
        assertThat(peakInDelay.get()).as("records in the delay at once").isGreaterThan(keys / 2)
                .isLessThanOrEqualTo(keys);
        assertThat(delayThreads).as("threads the delay completed on").isNotEmpty()
                .noneMatch(name -> name.contains("KafkaFetchWorker"));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        Map<String, List<Long>> perKey = new HashMap<>();
        for (Recorder.Seen seen : recorder.all()) {
            perKey.computeIfAbsent(seen.key(), k -> new ArrayList<>()).add(seen.offset());
        }
        assertThat(perKey).hasSize(keys);
        perKey.forEach((key, offsets) -> assertThat(offsets).as("key %s", key).isSorted());
        // far fewer than one thread per record in flight (before the worker pool: 2,000)
        assertThat(workers.peak()).as("live worker threads").isPositive().isLessThanOrEqualTo(RECORDS / 10);
    }

    /** Camel's delayer threads (10, as by default), with no bound on the exchanges waiting for them. */
    private static ScheduledExecutorService unboundedDelayer(CamelContext context) {
        ThreadPoolProfile profile = new ThreadPoolProfile("unboundedDelay");
        profile.setPoolSize(10);
        profile.setMaxQueueSize(0);
        return context.getExecutorServiceManager().newScheduledThreadPool(context, "Delay", profile);
    }

    /** Samples the live platform threads whose name contains a marker and keeps the peak. */
    private static final class WorkerThreads {
        private final String marker;
        private final AtomicInteger peak = new AtomicInteger();
        private volatile boolean running = true;
        private Thread sampler;

        WorkerThreads(String marker) {
            this.marker = marker;
        }

        void start() {
            sampler = new Thread(() -> {
                while (running) {
                    peak.accumulateAndGet(count(), Math::max);
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "worker-thread-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        void stop() throws InterruptedException {
            running = false;
            sampler.join();
            peak.accumulateAndGet(count(), Math::max);
        }

        int peak() {
            return peak.get();
        }

        private int count() {
            Thread[] threads = new Thread[Thread.activeCount() * 2 + 16];
            int n = Thread.enumerate(threads);
            int matching = 0;
            for (int i = 0; i < n; i++) {
                if (threads[i].getName().contains(marker)) {
                    matching++;
                }
            }
            return matching;
        }
    }
}
