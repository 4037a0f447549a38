package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.processor.BatchCollector;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.window.PartitionState;
import org.apache.camel.AsyncCallback;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partition registry as the rebalance listener, on Kafka's {@link MockConsumer} with the rebalance callbacks called
 * by the test: what a revoke commits (finished records only, after waiting for running ones), what a loss commits
 * (nothing), that a retired state takes no more completions, that a batch straddling a revoked and a kept partition is
 * dropped whole and the kept partition sought back, and how task pauses, retry delays and operator pauses combine.
 */
class PartitionStatesTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    private final Queue<WorkItem> completed = new ConcurrentLinkedQueue<>();
    private final LinkedBlockingQueue<AsyncCallback> running = new LinkedBlockingQueue<>();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final AtomicInteger published = new AtomicInteger();
    private PartitionStates states;
    private BatchCollector batches;
    private Dispatcher dispatcher;
    private Runnable onSettle = () -> {
    };

    @BeforeEach
    void assignBoth() {
        mock.assign(List.of(P0, P1));
        mock.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
    }

    @AfterEach
    void stopWorkers() throws InterruptedException {
        running.forEach(cb -> cb.done(false));
        workers.shutdownNow();
        workers.awaitTermination(5, TimeUnit.SECONDS);
    }

    private void create(TaskSettings settings) {
        // the route holds every record until the test completes it
        dispatcher = new Dispatcher(settings.ordering(), true, settings.maxConcurrency(), settings.maxConcurrency(),
                workers, (item, callback) -> {
                    running.add(callback);
                    return false;
                }, completed::add);
        batches = settings.batching() ? new BatchCollector(0, settings.maxPollRecords()) : null;
        CommitManager commits = new CommitManager(settings.autoCommitIntervalMs(), settings.commitTimeoutMs(), false);
        TaskMetrics metrics = new TaskMetrics("task", "t", "g", 1000, 4, new SecretMasker(List.of()));
        states = new PartitionStates("task", settings, dispatcher, batches, commits, metrics, this::settle,
                published::incrementAndGet);
        TaskConsumer consumer = new TaskConsumer(mock, "client");
        states.attach(consumer, consumer);
    }

    /** What the fetch loop's settle step does: finishes the completed records in their windows. */
    private void settle() {
        Runnable hook = onSettle;
        onSettle = () -> {
        };
        hook.run();
        for (WorkItem item; (item = completed.poll()) != null;) {
            states.finish(item);
        }
    }

    private WorkItem polled(TopicPartition tp, long offset) {
        return PolledRecords.polled(states, tp, offset);
    }

    private Long committed(TopicPartition tp) {
        OffsetAndMetadata c = mock.committed(Set.of(tp)).get(tp);
        return c == null ? null : c.offset();
    }

    @Test
    void revokeCommitsWhatFinishedAndNothingAfterTheFirstUnfinishedRecord() {
        create(TaskSettingsBuilder.taskSettings().revokeTimeoutMs(50).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        assertThat(published.get()).as("the assignment is published").isEqualTo(1);
        List<WorkItem> items = new ArrayList<>();
        for (long o = 0; o < 5; o++) {
            items.add(polled(P0, o));
        }
        PartitionState p0 = states.assignedState(P0);
        states.finish(items.get(0));
        states.finish(items.get(1));
        states.finish(items.get(3)); // above the unfinished offset 2: never committable

        states.onPartitionsRevoked(List.of(P0));

        assertThat(committed(P0)).as("committed up to the first unfinished record").isEqualTo(2L);
        assertThat(committed(P1)).as("the kept partition is not committed by the revoke").isNull();
        assertThat(states.assignedState(P0)).isNull();
        assertThat(states.assignedState(P1)).isNotNull();
        assertThat(p0.isRetired()).isTrue();
        assertThat(states.finish(items.get(2))).as("a late completion finishes nothing in a retired state").isFalse();
    }

    @Test
    void revokeWaitsForRunningRecordsAndCommitsThemOnceFinished() throws InterruptedException {
        create(TaskSettingsBuilder.taskSettings().ordering(Ordering.UNORDERED).revokeTimeoutMs(30_000).build());
        states.onPartitionsAssigned(List.of(P0));
        dispatcher.submitAll(List.of(polled(P0, 0), polled(P0, 1)));
        List<AsyncCallback> both = List.of(running.poll(10, TimeUnit.SECONDS), running.poll(10, TimeUnit.SECONDS));
        assertThat(both).as("both records run (premise)").doesNotContainNull();
        // the route finishes them once the revoke waits for them (from a thread that never ran them)
        onSettle = () -> new Thread(() -> both.forEach(cb -> cb.done(false))).start();

        states.onPartitionsRevoked(List.of(P0));

        assertThat(committed(P0)).as("both finished during the revoke's wait, both committed").isEqualTo(2L);
    }

    @Test
    void revokeCancelsQueuedRecordsAndGivesUpOnRunningOnesAfterRevokeTimeout() throws InterruptedException {
        create(TaskSettingsBuilder.taskSettings().revokeTimeoutMs(100).build());
        states.onPartitionsAssigned(List.of(P0));
        WorkItem first = polled(P0, 0);
        states.finish(first);
        dispatcher.submitAll(List.of(polled(P0, 1), polled(P0, 2)));
        assertThat(running.poll(10, TimeUnit.SECONDS)).as("the second record runs (premise)").isNotNull();
        assertThat(dispatcher.load().queued()).as("the third waits in its lane (premise)").isEqualTo(1);

        states.onPartitionsRevoked(List.of(P0));

        assertThat(dispatcher.load().queued()).as("the queued record is cancelled").isZero();
        assertThat(committed(P0)).as("only the finished record is committed").isEqualTo(1L);
    }

    @Test
    void lostPartitionsAreRetiredWithoutACommit() {
        create(TaskSettingsBuilder.taskSettings().build());
        states.onPartitionsAssigned(List.of(P0));
        WorkItem item = polled(P0, 0);
        states.finish(item);
        assertThat(states.finishedNotCommitted()).as("premise: something to commit").isTrue();

        states.onPartitionsLost(List.of(P0));

        assertThat(committed(P0)).as("a lost partition is never committed").isNull();
        assertThat(states.assignedState(P0)).isNull();
        assertThat(item.partitionState().isRetired()).isTrue();
    }

    @Test
    void assignmentStartsFromTheCommittedOffset() {
        mock.commitSync(Map.of(P0, new OffsetAndMetadata(7)));
        create(TaskSettingsBuilder.taskSettings().build());
        PartitionState early = states.stateOf(P0); // Kafka returned records before telling of the assignment

        states.onPartitionsAssigned(List.of(P0));

        PartitionState state = states.assignedState(P0);
        assertThat(state).isNotSameAs(early);
        assertThat(early.isRetired()).as("the earlier state is retired").isTrue();
        assertThat(state.lastCommitted()).isEqualTo(7L);
    }

    @Test
    void aQueuedBatchStraddlingARevokedPartitionIsDroppedWholeAndTheKeptPartitionSoughtBack()
            throws InterruptedException {
        create(TaskSettingsBuilder.taskSettings().batching(true).revokeTimeoutMs(50).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        WorkItem runningBatch = new WorkItem(List.of(polled(P1, 2)));
        WorkItem straddling = new WorkItem(List.of(polled(P0, 3), polled(P1, 4), polled(P1, 5)));
        mock.seek(P1, 6);
        dispatcher.submitAll(List.of(runningBatch, straddling));
        assertThat(running.poll(10, TimeUnit.SECONDS)).as("the first batch runs (premise)").isNotNull();
        assertThat(dispatcher.load().queued()).as("the straddling batch waits behind it (premise)").isEqualTo(1);

        states.onPartitionsRevoked(List.of(P0));

        assertThat(dispatcher.load().queued()).as("the straddling batch is dropped whole").isZero();
        assertThat(mock.position(P1)).as("the kept partition is polled again from the batch's first record there")
                .isEqualTo(4L);
        assertThat(states.assignedState(P1).held()).as("only the running batch's record stays in the window")
                .isEqualTo(1);
    }

    /**
     * The revoke waits for a running batch of the revoked partition; once it finishes, the batch queued behind the
     * dropped straddling one (records of the kept partition only, polled after it) must not start: the kept partition
     * is sought back to the straddling batch's record, and running the later batch first would break the order.
     */
    @Test
    void nothingOfAKeptPartitionStartsWhileTheRevokeWaitsForItsSeekBack() throws InterruptedException {
        create(TaskSettingsBuilder.taskSettings().batching(true).revokeTimeoutMs(30_000).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        WorkItem runningBatch = new WorkItem(List.of(polled(P0, 2)));
        WorkItem straddling = new WorkItem(List.of(polled(P0, 3), polled(P1, 4)));
        WorkItem later = new WorkItem(List.of(polled(P1, 5), polled(P1, 6)));
        mock.seek(P1, 7);
        dispatcher.submitAll(List.of(runningBatch, straddling, later));
        AsyncCallback first = running.poll(10, TimeUnit.SECONDS);
        assertThat(first).as("the first batch runs (premise)").isNotNull();
        assertThat(dispatcher.load().queued()).as("two batches wait behind it (premise)").isEqualTo(2);
        // the route finishes the running batch while the revoke waits for it
        onSettle = () -> new Thread(() -> first.done(false)).start();

        states.onPartitionsRevoked(List.of(P0));

        assertThat(running.poll(200, TimeUnit.MILLISECONDS)).as("no batch of the kept partition started").isNull();
        assertThat(later.state()).isEqualTo(WorkItem.CANCELLED);
        assertThat(dispatcher.load().queued()).isZero();
        assertThat(mock.position(P1)).as("the kept partition is polled again from the straddling batch's record")
                .isEqualTo(4L);
    }

    @Test
    void collectedRecordsOfARevokedPartitionLeaveTheCollectorAndTheOthersStay() {
        create(TaskSettingsBuilder.taskSettings().batching(true).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        batches.add(polled(P0, 3), 0);
        WorkItem kept = polled(P1, 4);
        batches.add(kept, 0);

        states.onPartitionsRevoked(List.of(P0));

        WorkItem batch = batches.takeIfDue(0, true);
        assertThat(batch).isNotNull();
        assertThat(batch.records()).containsExactly(kept);
    }

    @Test
    void aTaskPauseResumesOnlyPartitionsThatNeitherWaitForARetryNorAreOperatorPaused() {
        create(TaskSettingsBuilder.taskSettings().build());
        TopicPartition p2 = new TopicPartition("t", 2);
        mock.assign(List.of(P0, P1, p2));
        mock.updateBeginningOffsets(Map.of(p2, 0L));
        states.onPartitionsAssigned(List.of(P0, P1, p2));
        PartitionPauses operator = new PartitionPauses();
        states.pauses().setOperatorPauses(operator);
        operator.pause(p2, "test");

        states.pauses().pauseTask("window full");
        assertThat(mock.paused()).containsExactlyInAnyOrder(P0, P1, p2);
        states.pauses().delay(states.assignedState(P1), 3, 1_000);
        assertThat(mock.position(P1)).as("sought back to the letter's record").isEqualTo(3L);
        states.pauses().pauseTask(null);
        assertThat(mock.paused()).as("waiting for its retry or operator-paused").containsExactlyInAnyOrder(P1, p2);

        assertThat(states.pauses().resumeDue(999)).as("next due").isEqualTo(1_000L);
        assertThat(mock.paused()).contains(P1);
        assertThat(states.pauses().resumeDue(1_000)).isEqualTo(Long.MAX_VALUE);
        assertThat(mock.paused()).containsExactly(p2);
    }

    @Test
    void aPartitionHoldingMoreThanItsShareOfTheWindowIsPausedAloneUntilItHoldsHalfOfIt() {
        create(TaskSettingsBuilder.taskSettings().maxInFlightRecords(100).maxPollRecords(10).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        List<WorkItem> hot = new ArrayList<>();
        for (long o = 0; o < 46; o++) { // its share: (100 - 10) / 2 partitions = 45
            hot.add(polled(P0, o));
        }
        polled(P1, 0);

        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("only the partition over its share").containsExactly(P0);
        assertThat(states.pauses().reason(states.assignedState(P0))).isEqualTo("window-share");
        assertThat(states.pauses().reason(states.assignedState(P1))).isNull();

        states.pauses().pauseTask("user");
        states.pauses().pauseTask(null);
        assertThat(mock.paused()).as("lifting a task pause does not resume it").containsExactly(P0);

        for (int i = 0; i < 23; i++) {
            states.finish(hot.get(i));
        }
        assertThat(states.assignedState(P0).held()).as("premise").isEqualTo(23);
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("above half its share").containsExactly(P0);
        states.finish(hot.get(23));
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("at half its share").isEmpty();
    }

    @Test
    void noPartitionIsPausedAloneWhileEverySlotIsBusyButOnePausedAloneStillResumesAtHalfItsShare() {
        create(TaskSettingsBuilder.taskSettings().maxInFlightRecords(100).maxPollRecords(10).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        List<WorkItem> p0 = new ArrayList<>();
        for (long o = 0; o < 46; o++) {
            p0.add(polled(P0, o));
        }
        List<WorkItem> p1 = new ArrayList<>();
        for (long o = 0; o < 46; o++) {
            p1.add(polled(P1, o));
        }

        // the records wait for a slot, not for their lane: another partition's could not start either
        states.pauses().balance(100, 10, false);
        assertThat(mock.paused()).as("every slot busy: only the task-wide pause bounds the window").isEmpty();
        assertThat(states.pauses().reason(states.assignedState(P0))).isNull();

        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("a slot idle").containsExactlyInAnyOrder(P0, P1);
        p0.subList(0, 24).forEach(states::finish); // holds 22: half its share of 45
        states.pauses().balance(100, 10, false);
        assertThat(mock.paused()).as("back at half its share, resumed whatever the slots").containsExactly(P1);
    }

    @Test
    void withKeyOrderingAPartitionMayBePausedAloneWhateverTheSlotsElseOnlyWhileOneIsIdle() {
        // KEY: a hot key's records wait for their lane while the other keys keep every slot busy
        assertThat(ConsumerPauses.mayPauseAlone(Ordering.KEY, 64, 64)).isTrue();
        assertThat(ConsumerPauses.mayPauseAlone(Ordering.PARTITION, 1, 1)).isFalse();
        assertThat(ConsumerPauses.mayPauseAlone(Ordering.PARTITION, 0, 1)).isTrue();
        assertThat(ConsumerPauses.mayPauseAlone(Ordering.UNORDERED, 4, 4)).isFalse();
    }

    @Test
    void aPartitionBackUnderItsShareStaysPausedWhileAnOperatorOrARetryHoldsIt() {
        create(TaskSettingsBuilder.taskSettings().maxInFlightRecords(100).maxPollRecords(10).build());
        states.onPartitionsAssigned(List.of(P0, P1));
        PartitionPauses operator = new PartitionPauses();
        states.pauses().setOperatorPauses(operator);
        List<WorkItem> p0 = new ArrayList<>();
        List<WorkItem> p1 = new ArrayList<>();
        for (long o = 0; o < 46; o++) {
            p0.add(polled(P0, o));
            p1.add(polled(P1, o));
        }
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("premise").containsExactlyInAnyOrder(P0, P1);
        operator.pause(P0, "test");
        states.pauses().operatorPause(P0, true);
        states.pauses().delay(states.assignedState(P1), 46, 1_000);
        p0.forEach(states::finish);
        p1.forEach(states::finish);

        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).containsExactlyInAnyOrder(P0, P1);
        assertThat(states.pauses().reason(states.assignedState(P0))).isEqualTo("operator");
        assertThat(states.pauses().reason(states.assignedState(P1))).isEqualTo("retry-delay");
        states.pauses().resumeDue(1_000);
        assertThat(mock.paused()).containsExactly(P0);
    }

    @Test
    void aPartitionAssignedAgainIsPausedAgainWhenItHoldsMoreThanItsShare() {
        create(TaskSettingsBuilder.taskSettings().maxInFlightRecords(100).maxPollRecords(10).revokeTimeoutMs(50)
                .build());
        states.onPartitionsAssigned(List.of(P0, P1));
        for (long o = 0; o < 46; o++) {
            polled(P0, o);
        }
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).as("premise").containsExactly(P0);
        // an eager rebalance gives it up and back: the consumer forgets its pause
        states.onPartitionsRevoked(List.of(P0, P1));
        mock.resume(List.of(P0));
        states.onPartitionsAssigned(List.of(P0, P1));
        for (long o = 0; o < 30; o++) { // more than half its share, less than all of it
            polled(P0, o);
        }
        states.pauses().balance(100, 10, true);
        assertThat(states.pauses().reason(states.assignedState(P0))).isNull();
        for (long o = 30; o < 46; o++) {
            polled(P0, o);
        }
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).containsExactly(P0);
    }

    @Test
    void aTaskWithOnePartitionHasOnlyTheTasksBackPressure() {
        mock.assign(List.of(P0));
        create(TaskSettingsBuilder.taskSettings().maxInFlightRecords(100).maxPollRecords(10).build());
        states.onPartitionsAssigned(List.of(P0));
        for (long o = 0; o < 90; o++) {
            polled(P0, o);
        }
        states.pauses().balance(100, 10, true);
        assertThat(mock.paused()).isEmpty();
    }

    @Test
    void anOperatorPausedPartitionIsPausedAgainWhenItIsAssigned() {
        create(TaskSettingsBuilder.taskSettings().build());
        PartitionPauses operator = new PartitionPauses();
        operator.pause(P1, "test");
        states.pauses().setOperatorPauses(operator);

        states.onPartitionsAssigned(List.of(P0, P1));

        assertThat(mock.paused()).containsExactly(P1);
    }

    @Test
    void aPausedTaskPausesWhatItIsAssigned() {
        mock.assign(List.of(P0));
        create(TaskSettingsBuilder.taskSettings().build());
        states.onPartitionsAssigned(List.of(P0));
        states.pauses().pauseTask("suspended");
        assertThat(mock.paused()).as("premise").containsExactly(P0);

        mock.assign(List.of(P0, P1));
        states.onPartitionsAssigned(List.of(P1));

        assertThat(mock.paused()).containsExactlyInAnyOrder(P0, P1);
    }
}
