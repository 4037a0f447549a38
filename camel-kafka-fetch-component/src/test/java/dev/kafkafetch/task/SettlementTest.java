package dev.kafkafetch.task;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.security.SecretMasker;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop's way back from the route, on Kafka's {@link MockConsumer}: completions finish their records in their
 * windows, the interval commit stops at the first unfinished record, a seek-back request is put aside (its record not
 * finished) and carried out by {@link Settlement#seekBack}, and with autoCommitEnable=false nothing is committed.
 */
class SettlementTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final long LATER = Long.MAX_VALUE / 2; // every interval commit is due

    private final MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final AtomicInteger stops = new AtomicInteger();
    private PartitionStates states;
    private CompletionQueue completions;
    private Settlement settlement;

    @AfterEach
    void stopWorkers() {
        workers.shutdownNow();
    }

    private void create(boolean autoCommit) {
        TaskSettings settings = TaskSettingsBuilder.taskSettings().autoCommitEnable(autoCommit).build();
        mock.assign(List.of(P0));
        mock.updateBeginningOffsets(Map.of(P0, 0L));
        Dispatcher dispatcher = new Dispatcher(settings.ordering(), true, 4, 4, workers, (item, callback) -> true,
                item -> {
                });
        CommitManager commits = new CommitManager(settings.autoCommitIntervalMs(), settings.commitTimeoutMs(), false);
        TaskMetrics metrics = new TaskMetrics("task", "t", "g", 1000, 4, new SecretMasker(List.of()));
        completions = new CompletionQueue(1000, 100, () -> {
        });
        states = new PartitionStates("task", settings, dispatcher, null, commits, metrics, () -> settlement.settle(),
                () -> {
                });
        TaskConsumer consumer = new TaskConsumer(mock, "client");
        settlement = new Settlement(completions, states, dispatcher, commits, null, metrics, autoCommit,
                () -> consumer, stops::incrementAndGet);
        states.attach(consumer, settlement.committer());
        states.onPartitionsAssigned(List.of(P0));
    }

    private WorkItem polled(long offset) {
        return PolledRecords.polled(states, P0, offset);
    }

    private Long committed() {
        OffsetAndMetadata c = mock.committed(Set.of(P0)).get(P0);
        return c == null ? null : c.offset();
    }

    @Test
    void completionsFinishTheirRecordsAndTheCommitStopsAtTheFirstUnfinished() {
        create(true);
        List<WorkItem> items = List.of(polled(0), polled(1), polled(2), polled(3));
        completions.offer(items.get(0));
        completions.offer(items.get(1));
        completions.offer(items.get(3));

        settlement.settle();
        settlement.commitIfDue(LATER);

        assertThat(committed()).as("up to offset 2, which is unfinished").isEqualTo(2L);
        assertThat(states.unfinished()).isEqualTo(1);
        assertThat(settlement.restartAborted()).as("not transacted: nothing to restart").isFalse();
        assertThat(stops.get()).isZero();
    }

    @Test
    void aSeekBackRequestIsPutAsideUnfinishedAndCarriedOutAfterThePoll() {
        create(true);
        WorkItem first = polled(0);
        WorkItem failed = polled(1);
        polled(2);
        failed.requestBreak();
        completions.offer(first);
        completions.offer(failed);

        settlement.settle();
        settlement.commitIfDue(LATER);
        assertThat(committed()).as("the failed record is not finished").isEqualTo(1L);

        settlement.seekBack();
        assertThat(mock.position(P0)).as("polled again from the failed record").isEqualTo(1L);
    }

    @Test
    void withoutAutoCommitNothingIsCommitted() {
        create(false);
        WorkItem item = polled(0);
        completions.offer(item);

        settlement.settle();
        settlement.commitIfDue(LATER);
        settlement.commitFinished();

        assertThat(states.finishedNotCommitted()).as("premise: finished").isTrue();
        assertThat(committed()).isNull();
    }
}
