package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.window.PartitionState;
import org.apache.camel.AsyncCallback;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Dispatchers sharing slots: together never above the slots, and a slot one frees goes to the other's records. */
class SharedSlotsTest {

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4);

    @AfterEach
    void close() {
        workers.shutdownNow();
        timer.shutdownNow();
    }

    private static List<WorkItem> items(int partition, int n) {
        PartitionState s = new PartitionState(new TopicPartition("t", partition), -1);
        List<WorkItem> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new WorkItem(s, s.append(i), s.generation(), 1, i, 0, null, null, null, null, null, null));
        }
        return list;
    }

    /** Counts the records running across every dispatcher; finishes each at once or a moment later. */
    private final class Counting implements ItemProcessor {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();

        @Override
        public boolean process(WorkItem item, AsyncCallback callback) {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            if (ThreadLocalRandom.current().nextBoolean()) {
                running.decrementAndGet();
                return true;
            }
            timer.schedule(() -> {
                running.decrementAndGet();
                callback.done(false);
            }, ThreadLocalRandom.current().nextInt(300), TimeUnit.MICROSECONDS);
            return false;
        }
    }

    /** Holds every record until released. */
    private final class Blocking implements ItemProcessor {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger started = new AtomicInteger();

        @Override
        public boolean process(WorkItem item, AsyncCallback callback) {
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
        }
    }

    @Test
    void twoDispatchersTogetherNeverRunMoreThanTheSlots() throws Exception {
        SharedSlots slots = new SharedSlots(8);
        Counting probe = new Counting();
        CountDownLatch done = new CountDownLatch(4000);
        Dispatcher a = new Dispatcher(Ordering.UNORDERED, false, 8, 8, workers, probe, i -> done.countDown(), slots);
        Dispatcher b = new Dispatcher(Ordering.UNORDERED, false, 8, 8, workers, probe, i -> done.countDown(), slots);
        List<WorkItem> forA = items(0, 2000);
        List<WorkItem> forB = items(1, 2000);
        for (int i = 0; i < 2000; i += 20) {
            a.submitAll(forA.subList(i, i + 20));
            b.submitAll(forB.subList(i, i + 20));
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all records finished").isTrue();
        await().until(() -> a.load().running() + b.load().running() == 0);
        assertThat(probe.maxRunning.get()).as("records running at once, both dispatchers").isLessThanOrEqualTo(8)
                .isGreaterThan(1);
        assertThat(slots.free()).as("every slot back").isEqualTo(8);
    }

    @Test
    void aSlotOneDispatcherFreesStartsTheOthersRecord() {
        SharedSlots slots = new SharedSlots(4);
        Blocking first = new Blocking();
        Blocking second = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher a = new Dispatcher(Ordering.UNORDERED, false, 4, 4, workers, first, i -> done.incrementAndGet(),
                slots);
        Dispatcher b = new Dispatcher(Ordering.UNORDERED, false, 4, 4, workers, second, i -> done.incrementAndGet(),
                slots);
        a.submitAll(items(0, 4));
        b.submitAll(items(1, 4));
        assertThat(a.load().running()).as("the first dispatcher's records take every slot").isEqualTo(4);
        assertThat(b.load().running()).as("none left for the second's").isZero();
        assertThat(b.load().queued()).isEqualTo(4);
        await().until(() -> first.started.get() == 4);
        first.release.countDown();
        await().until(() -> second.started.get() == 4);
        assertThat(a.load().running() + b.load().running()).isLessThanOrEqualTo(4);
        second.release.countDown();
        await().until(() -> done.get() == 8);
        await().until(() -> slots.free() == 4);
    }

    @Test
    void anAbandonedRecordsSlotGoesToTheOtherDispatcher() {
        SharedSlots slots = new SharedSlots(1);
        Blocking first = new Blocking();
        Blocking second = new Blocking();
        Dispatcher a = new Dispatcher(Ordering.UNORDERED, false, 1, 1, workers, first, i -> {
        }, slots);
        Dispatcher b = new Dispatcher(Ordering.UNORDERED, false, 1, 1, workers, second, i -> {
        }, slots);
        List<WorkItem> stalled = items(0, 1);
        a.submitAll(stalled);
        b.submitAll(items(1, 1));
        assertThat(b.load().running()).isZero();
        await().until(() -> first.started.get() == 1);
        assertThat(a.abandon(stalled.get(0))).isTrue();
        await().until(() -> second.started.get() == 1);
        first.release.countDown();
        second.release.countDown();
        await().until(() -> slots.free() == 1);
    }
}
