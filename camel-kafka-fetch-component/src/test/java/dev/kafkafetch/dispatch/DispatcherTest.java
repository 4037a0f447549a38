package dev.kafkafetch.dispatch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import java.util.function.Function;

import dev.kafkafetch.window.PartitionState;
import org.apache.camel.AsyncCallback;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        final Function<WorkItem, Object> laneOf;

        Probe(ScheduledExecutorService timer, Function<WorkItem, Object> laneOf) {
            this.timer = timer;
            this.laneOf = laneOf;
        }

        @Override
        public boolean process(WorkItem item, AsyncCallback callback) {
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
        List<PartitionState> states = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            states.add(new PartitionState(new TopicPartition("t", p), -1));
        }
        for (int i = 0; i < perPartition; i++) {
            for (PartitionState s : states) {
                list.add(item(s, i, "k" + (i % keys)));
            }
        }
        return list;
    }

    private static WorkItem item(PartitionState s, long offset, String key) {
        int generation = s.generation();
        return new WorkItem(s, s.append(offset), generation, 1, offset, 0, key.getBytes(StandardCharsets.UTF_8), null,
                null, null, null, null);
    }

    private void runAll(Ordering ordering, int maxConcurrency, Probe probe, List<WorkItem> items)
            throws InterruptedException {
        CountDownLatch done = new CountDownLatch(items.size());
        Dispatcher dispatcher = new Dispatcher(ordering, true, maxConcurrency, maxConcurrency, workers, probe,
                i -> done.countDown());
        for (WorkItem item : items) {
            dispatcher.submitAll(List.of(item));
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all records finished").isTrue();
        // onDone runs just before the slot is released
        await().until(() -> dispatcher.load().running() == 0);
        assertThat(dispatcher.load().queued()).isZero();
    }

    @Test
    void unorderedNeverExceedsMaxConcurrencyAndUsesIt() throws Exception {
        Probe probe = new Probe(timer, i -> null);
        runAll(Ordering.UNORDERED, 8, probe, items(2, 2000, 10));
        assertThat(probe.maxRunning.get()).isLessThanOrEqualTo(8).isGreaterThan(1);
    }

    @Test
    void partitionOrderingRunsOnePerPartitionInOffsetOrder() throws Exception {
        Probe probe = new Probe(timer, i -> i.topicPartition());
        runAll(Ordering.PARTITION, 16, probe, items(4, 1000, 10));
        assertThat(probe.violations).isEmpty();
        assertThat(probe.maxRunning.get()).isLessThanOrEqualTo(4);
        probe.orderPerLane.values().forEach(offsets -> assertThat(offsets).isSorted().hasSize(1000));
    }

    @Test
    void keyOrderingRunsOnePerKeyInOffsetOrderAndKeysInParallel() throws Exception {
        Probe probe = new Probe(timer,
                i -> i.topicPartition() + "/" + new String(i.rawKey(), StandardCharsets.UTF_8));
        runAll(Ordering.KEY, 16, probe, items(1, 3000, 50));
        assertThat(probe.violations).isEmpty();
        assertThat(probe.maxRunning.get()).isGreaterThan(1).isLessThanOrEqualTo(16);
        assertThat(probe.orderPerLane).hasSize(50);
        probe.orderPerLane.values().forEach(offsets -> assertThat(offsets).isSorted().hasSize(60));
    }

    /** A route that holds every record until released; counts starts and completions. */
    private final class Blocking implements ItemProcessor {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger started = new AtomicInteger();
        final List<Long> startedOffsets = new CopyOnWriteArrayList<>();

        @Override
        public boolean process(WorkItem item, AsyncCallback callback) {
            started.incrementAndGet();
            startedOffsets.add(item.offset());
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
    void cancelledRecordsNeverRunAndHoldStopsStarting() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.PARTITION, true, 4, 4, workers, blocking,
                i -> done.incrementAndGet());
        List<WorkItem> items = items(2, 10, 1);
        dispatcher.submitAll(items);
        assertThat(dispatcher.load().running()).isEqualTo(2);
        PartitionState first = items.get(0).partitionState();
        assertThat(dispatcher.cancel(i -> i.partitionState() == first)).hasSize(9);
        dispatcher.hold(true);
        blocking.release.countDown();
        await().until(() -> done.get() == 2);
        assertThat(blocking.started.get()).isEqualTo(2);
        dispatcher.hold(false);
        await().until(() -> done.get() == 11);
        assertThat(items.stream().filter(i -> i.state() == WorkItem.CANCELLED)).hasSize(9);
    }

    /** docs/design.md §4.6: a record of an earlier assignment of the partition still holds the partition's lane. */
    @Test
    void aLaneOutlivesThePartitionStateItWasOpenedFor() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.PARTITION, true, 8, 8, workers, blocking,
                i -> done.incrementAndGet());
        TopicPartition tp = new TopicPartition("t", 0);
        PartitionState before = new PartitionState(tp, -1);
        dispatcher.submitAll(List.of(item(before, 5, "a")));
        await().until(() -> blocking.started.get() == 1);
        before.retire(); // revoked while its record runs, then assigned again
        PartitionState after = new PartitionState(tp, 5);
        dispatcher.submitAll(List.of(item(after, 5, "a"), item(after, 6, "a")));
        assertThat(dispatcher.load().running()).isEqualTo(1);
        assertThat(dispatcher.load().queued()).isEqualTo(2);
        blocking.release.countDown();
        await().until(() -> done.get() == 3);
        assertThat(blocking.startedOffsets).containsExactly(5L, 5L, 6L);
    }

    /** A record whose partition waits for a seek back is never started, and the next cancel() hands it back. */
    @Test
    void blockedRecordsAreDroppedAndHandedBack() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.KEY, true, 8, 8, workers, blocking,
                i -> done.incrementAndGet());
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        WorkItem a1 = item(s, 1, "a");
        WorkItem a2 = item(s, 2, "a");
        WorkItem b3 = item(s, 3, "b");
        dispatcher.submitAll(List.of(a1, a2));
        s.markBreakPending();
        dispatcher.submitAll(List.of(b3));
        await().until(() -> blocking.started.get() == 1);
        blocking.release.countDown();
        await().until(() -> done.get() == 1);
        await().until(() -> dispatcher.load().queued() == 0);
        assertThat(dispatcher.cancel(i -> false)).containsExactlyInAnyOrder(a2, b3);
        assertThat(blocking.startedOffsets).containsExactly(1L);
    }

    @Test
    void abandonedRecordsReleaseTheirLaneUpToTheCap() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.PARTITION, true, 1, 1, workers, blocking,
                i -> done.incrementAndGet());
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        WorkItem first = item(s, 1, "a");
        WorkItem second = item(s, 2, "a");
        dispatcher.submitAll(List.of(first, second, item(s, 3, "a")));
        await().until(() -> blocking.started.get() == 1);
        assertThat(dispatcher.abandon(first)).isTrue();
        await().until(() -> blocking.started.get() == 2);
        assertThat(blocking.startedOffsets).containsExactly(1L, 2L);
        assertThat(dispatcher.abandon(second)).as("one abandoned record already holds its thread").isFalse();
        assertThat(dispatcher.load().abandonedRunning()).isEqualTo(1);
        blocking.release.countDown();
        await().until(() -> done.get() == 2); // the abandoned one is never reported done
        assertThat(dispatcher.load().abandonedRunning()).isZero();
        assertThat(first.state()).isEqualTo(WorkItem.ABANDONED);
    }

    /** An operator's pause of one partition: its queued records wait (keeping their lanes), others go on. */
    @Test
    void aHeldPartitionStartsNothingUntilReleasedAndOthersGoOn() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.KEY, true, 8, 8, workers, blocking,
                i -> done.incrementAndGet());
        PartitionState p0 = new PartitionState(new TopicPartition("t", 0), -1);
        PartitionState p1 = new PartitionState(new TopicPartition("t", 1), -1);
        dispatcher.holdPartition(p0.partition(), true);
        WorkItem a1 = item(p0, 1, "a");
        WorkItem a2 = item(p0, 2, "a");
        WorkItem b3 = item(p0, 3, "b");
        dispatcher.submitAll(List.of(a1, a2, b3, item(p1, 1, "a"), item(p1, 2, "b")));
        await().until(() -> blocking.started.get() == 2);
        assertThat(dispatcher.load().queued()).isEqualTo(3);
        LanePlace[] places = dispatcher.lanePlaces(List.of(a1, a2, b3));
        assertThat(places).extracting(LanePlace::waitingBehind).containsExactly(1, 0, 0);
        assertThat(places[0].ahead()).as("a1 heads its lane").isNull();
        assertThat(places[1].ahead()).as("a2 waits behind a1").isSameAs(a1);
        assertThat(places[2].ahead()).isNull();
        assertThat(dispatcher.cancelQueued(b3)).as("a held record can be taken out").isTrue();
        assertThat(b3.state()).isEqualTo(WorkItem.CANCELLED);
        assertThat(dispatcher.cancelQueued(b3)).isFalse();
        blocking.release.countDown();
        await().until(() -> done.get() == 2);
        assertThat(a1.state()).isEqualTo(WorkItem.QUEUED);
        dispatcher.holdPartition(p0.partition(), false);
        await().until(() -> done.get() == 4);
        assertThat(blocking.startedOffsets).containsExactlyInAnyOrder(1L, 2L, 1L, 2L);
        assertThat(dispatcher.load().queued()).isZero();
    }

    /** Parking a record waiting in its lane hands the lane on; parking the lane's ready head does too. */
    @Test
    void cancellingOneQueuedRecordKeepsItsLaneMoving() {
        Blocking blocking = new Blocking();
        AtomicInteger done = new AtomicInteger();
        Dispatcher dispatcher = new Dispatcher(Ordering.PARTITION, true, 1, 1, workers, blocking,
                i -> done.incrementAndGet());
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        WorkItem first = item(s, 1, "a");
        WorkItem second = item(s, 2, "a");
        WorkItem third = item(s, 3, "a");
        dispatcher.submitAll(List.of(first, second, third));
        await().until(() -> blocking.started.get() == 1);
        assertThat(dispatcher.cancelQueued(second)).isTrue();
        assertThat(dispatcher.cancelQueued(first)).as("running, not queued").isFalse();
        blocking.release.countDown();
        await().until(() -> done.get() == 2);
        assertThat(blocking.startedOffsets).containsExactly(1L, 3L);
    }

    /**
     * A processor that completes a batch of exchanges when the batch fills (here two) completes the first one from the
     * second one's route, on whatever thread runs it: with one worker thread, the thread that ran the first record.
     * That completion comes after the first record's process() returned, so it finishes the record (its slot comes
     * back) like a completion from any other thread.
     */
    @Test
    void aLaterCompletionOnTheThreadThatRanTheRecordFinishesIt() {
        ExecutorService oneThread = Executors.newSingleThreadExecutor();
        try {
            List<AsyncCallback> batch = new ArrayList<>();
            List<Thread> completedOn = new CopyOnWriteArrayList<>();
            List<Long> done = new CopyOnWriteArrayList<>();
            ItemProcessor batching = (item, callback) -> {
                batch.add(callback);
                if (batch.size() == 2) {
                    completedOn.add(Thread.currentThread());
                    List<AsyncCallback> full = List.copyOf(batch);
                    batch.clear();
                    full.forEach(c -> c.done(false));
                }
                return false;
            };
            Dispatcher dispatcher = new Dispatcher(Ordering.UNORDERED, true, 2, 2, oneThread, batching,
                    i -> done.add(i.offset()));
            PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
            dispatcher.submitAll(List.of(item(s, 1, "a"), item(s, 2, "b")));
            await().until(() -> completedOn.size() == 1);
            await().atMost(Duration.ofSeconds(5)).until(() -> done.size() == 2);
            assertThat(done).containsExactlyInAnyOrder(1L, 2L);
            await().until(() -> dispatcher.load().running() == 0);
        } finally {
            oneThread.shutdownNow();
        }
    }

    @Test
    void aRecordWaitingInAnAsynchronousStepIsHeldByNoThread() {
        ExecutorService oneThread = Executors.newSingleThreadExecutor();
        try {
            List<AsyncCallback> pending = new CopyOnWriteArrayList<>();
            List<Long> done = new CopyOnWriteArrayList<>();
            CountDownLatch blocking = new CountDownLatch(1);
            ItemProcessor route = (item, callback) -> {
                if (item.offset() == 1) {
                    pending.add(callback); // an asynchronous step: the thread goes back, the record stays in the route
                    return false;
                }
                try {
                    blocking.await(); // a blocking one: the thread stays with the record
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            };
            Dispatcher dispatcher = new Dispatcher(Ordering.UNORDERED, true, 2, 2, oneThread, route,
                    i -> done.add(i.offset()));
            PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
            WorkItem async = item(s, 1, "a");
            WorkItem blocked = item(s, 2, "b");
            dispatcher.submitAll(List.of(async, blocked));
            await().until(() -> blocked.worker() != null);
            // the one thread runs the blocked record now: the asynchronous one must not name it as its own
            assertThat(async.state()).isEqualTo(WorkItem.RUNNING);
            assertThat(async.worker()).isNull();
            assertThat(async.inAsyncStep()).isTrue();
            assertThat(blocked.inAsyncStep()).isFalse();
            pending.get(0).done(false);
            blocking.countDown();
            await().atMost(Duration.ofSeconds(5)).until(() -> done.size() == 2);
            assertThat(done).containsExactlyInAnyOrder(1L, 2L);
        } finally {
            oneThread.shutdownNow();
        }
    }
}
