package dev.kafkafetch.processor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.window.PartitionWindow;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DispatcherTest {

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4);

    @AfterEach
    void close() {
        workers.shutdownNow();
        timer.shutdownNow();
    }

    /** Records the concurrency per lane and overall; completes half the items asynchronously. */
    private static final class Probe implements ItemProcessor {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final Map<Object, AtomicInteger> perLane = new ConcurrentHashMap<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        final Map<Object, List<Long>> orderPerLane = new ConcurrentHashMap<>();
        final ScheduledExecutorService timer;
        final java.util.function.Function<WorkItem, Object> laneOf;

        Probe(ScheduledExecutorService timer, java.util.function.Function<WorkItem, Object> laneOf) {
            this.timer = timer;
            this.laneOf = laneOf;
        }

        @Override
        public boolean process(WorkItem item, org.apache.camel.AsyncCallback callback) {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            Object lane = laneOf.apply(item);
            if (lane != null) {
                if (perLane.computeIfAbsent(lane, l -> new AtomicInteger()).incrementAndGet() > 1) {
                    violations.add("two records of lane " + lane + " at once");
                }
                orderPerLane.computeIfAbsent(lane, l -> new CopyOnWriteArrayList<>()).add(item.offset());
            }
            Runnable finish = () -> {
                if (lane != null) {
                    perLane.get(lane).decrementAndGet();
                }
                running.decrementAndGet();
            };
            if (ThreadLocalRandom.current().nextBoolean()) {
                finish.run();
                callback.done(true);
                return true;
            }
            timer.schedule(() -> {
                finish.run();
                callback.done(false);
            }, ThreadLocalRandom.current().nextInt(200), TimeUnit.MICROSECONDS);
            return false;
        }
    }

    private static List<WorkItem> items(int partitions, int perPartition, int keys) {
        List<WorkItem> list = new ArrayList<>();
        List<PartitionWindow> windows = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            windows.add(new PartitionWindow(new TopicPartition("t", p)));
        }
        for (int i = 0; i < perPartition; i++) {
            for (PartitionWindow w : windows) {
                long offset = i;
                byte[] key = ("k" + (i % keys)).getBytes(StandardCharsets.UTF_8);
                list.add(new WorkItem(w, w.append(offset), offset, 0, key, null, null, null, null, null,
                        System.nanoTime()));
            }
        }
        return list;
    }

    private void runAll(Ordering ordering, int maxConcurrency, Probe probe, List<WorkItem> items)
            throws InterruptedException {
        CountDownLatch done = new CountDownLatch(items.size());
        Dispatcher dispatcher = new Dispatcher(ordering, maxConcurrency, workers, probe, i -> done.countDown());
        for (WorkItem item : items) {
            dispatcher.submit(item);
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all records finished").isTrue();
        // onDone runs just before the slot is released
        org.awaitility.Awaitility.await().until(() -> dispatcher.runningCount() == 0);
        assertThat(dispatcher.queuedCount()).isZero();
    }

    @Test
    void unorderedNeverExceedsMaxConcurrencyAndUsesIt() throws Exception {
        Probe probe = new Probe(timer, i -> null);
        runAll(Ordering.UNORDERED, 8, probe, items(2, 2000, 10));
        assertThat(probe.maxRunning.get()).isLessThanOrEqualTo(8).isGreaterThan(1);
    }

    @Test
    void partitionOrderingRunsOnePerPartitionInOffsetOrder() throws Exception {
        Probe probe = new Probe(timer, i -> i.window());
        runAll(Ordering.PARTITION, 16, probe, items(4, 1000, 10));
        assertThat(probe.violations).isEmpty();
        assertThat(probe.maxRunning.get()).isLessThanOrEqualTo(4);
        probe.orderPerLane.values().forEach(offsets -> assertThat(offsets).isSorted().hasSize(1000));
    }

    @Test
    void keyOrderingRunsOnePerKeyInOffsetOrderAndKeysInParallel() throws Exception {
        Probe probe = new Probe(timer,
                i -> i.window().partition() + "/" + new String(i.rawKey(), StandardCharsets.UTF_8));
        runAll(Ordering.KEY, 16, probe, items(1, 3000, 50));
        assertThat(probe.violations).isEmpty();
        assertThat(probe.maxRunning.get()).isGreaterThan(1).isLessThanOrEqualTo(16);
        assertThat(probe.orderPerLane).hasSize(50);
        probe.orderPerLane.values().forEach(offsets -> assertThat(offsets).isSorted().hasSize(60));
    }

    @Test
    void cancelledRecordsNeverRunAndHoldStopsStarting() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ItemProcessor blocking = (item, callback) -> {
            started.incrementAndGet();
            workers.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                callback.done(false);
            });
            return false;
        };
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.PARTITION, 4, workers, blocking, i -> done.incrementAndGet());
        List<WorkItem> items = items(2, 10, 1);
        items.forEach(dispatcher::submit);
        assertThat(dispatcher.runningCount()).isEqualTo(2);
        PartitionWindow first = items.get(0).window();
        assertThat(dispatcher.cancel(w -> w == first)).isEqualTo(9);
        dispatcher.hold(true);
        release.countDown();
        org.awaitility.Awaitility.await().until(() -> done.get() == 2);
        assertThat(started.get()).isEqualTo(2);
        dispatcher.hold(false);
        org.awaitility.Awaitility.await().until(() -> done.get() == 11);
        assertThat(items.stream().filter(i -> i.state() == WorkItem.CANCELLED)).hasSize(9);
    }
}
