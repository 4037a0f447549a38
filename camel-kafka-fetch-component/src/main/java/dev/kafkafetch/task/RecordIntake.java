package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.Letters;
import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.processor.BatchCollector;
import dev.kafkafetch.serde.RecordDecoder;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes what a poll returned: every record enters its partition's window first, before anything else can happen to
 * it (docs/design.md §4.2), is decoded, then goes to the batch collector (batching) or straight to the dispatcher, in
 * poll order. A record that could not be deserialized is never put in a batch. A record the commit's offset map names
 * as finished enters its window finished and is not routed again. A retry letter that is not due yet is not taken: its
 * partition is sought back to it and paused until it is due (no thread ever sleeps for it). A record at an offset
 * that is not after the newest one polled from its partition (a consumer interceptor repeating records, offsets
 * re-used after a log truncation) is skipped as already held: logged, counted, never routed again, and the window
 * (so the committable offset) is unchanged. Fetch thread only.
 */
final class RecordIntake {

    private static final Logger LOG = LoggerFactory.getLogger(RecordIntake.class);

    private final String taskName;
    private final PartitionStates partitions;
    private final Dispatcher dispatcher;
    private final BatchCollector batches;
    private final TaskMetrics metrics;
    private final RetryPlan retries;
    private final List<WorkItem> toSubmit = new ArrayList<>();

    /**
     * @param batches null unless batching
     * @param retries null without retry topics
     */
    RecordIntake(String taskName, PartitionStates partitions, Dispatcher dispatcher, BatchCollector batches,
                 TaskMetrics metrics,
                 RetryPlan retries) {
        this.taskName = taskName;
        this.partitions = partitions;
        this.dispatcher = dispatcher;
        this.batches = batches;
        this.metrics = metrics;
        this.retries = retries;
    }

    void take(ConsumerRecords<byte[], byte[]> records, RecordDecoder decoder, long nowMs) {
        if (records.isEmpty()) {
            return;
        }
        int partitionsLeft = records.partitions().size();
        for (TopicPartition tp : records.partitions()) {
            partitionsLeft--;
            PartitionState state = partitions.stateOf(tp);
            List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
            for (int i = 0, n = list.size(); i < n; i++) {
                ConsumerRecord<byte[], byte[]> record = list.get(i);
                if (state.polledAlready(record.offset())) {
                    metrics.repeatedOffsetSkipped();
                    LOG.warn(
                            "Fetch task {}: {} offset {} is not after the newest offset polled ({}); skipped as already"
                             + " held",
                            taskName, tp, record.offset(), state.lastPolledOffset());
                    continue;
                }
                long due = retries != null && retries.isRetryTopic(tp.topic()) ? Letters.dueOf(record.headers()) : 0;
                if (due > nowMs) {
                    // a retry letter that is not due: its partition waits, paused, and polls it again then
                    partitions.pauses().delay(state, record.offset(), due);
                    break;
                }
                if (state.finishedBefore(record.offset())) {
                    // the commit's offset map says it was finished: it enters the window finished, never runs
                    state.finish(state.append(record.offset()), state.generation());
                    metrics.skippedFinished();
                    continue;
                }
                WorkItem item = decoder.decode(state, record);
                state.attach(item.seq(), item.generation(), item); // what the console names as stuck
                item.polledAt(nowMs);
                boolean lastOfPartition = i == n - 1;
                item.positionInPoll(lastOfPartition, lastOfPartition && partitionsLeft == 0);
                if (batches != null && item.decodeError() == null) {
                    WorkItem full = batches.add(item, nowMs);
                    if (full != null) {
                        toSubmit.add(full);
                    }
                } else {
                    toSubmit.add(item);
                }
            }
        }
        submit();
    }

    /** Hands the batch that is due (one per poll, or per batchingIntervalMs) to the dispatcher. */
    void dispatchDueBatch(long nowMs, boolean polledRecords) {
        if (batches != null) {
            WorkItem batch = batches.takeIfDue(nowMs, polledRecords);
            if (batch != null) {
                toSubmit.add(batch);
                submit();
            }
        }
    }

    /** How long the fetch thread may wait in poll before a collected batch is due. */
    long millisUntilBatchDue(long nowMs) {
        return batches != null ? batches.millisUntilDue(nowMs) : Long.MAX_VALUE;
    }

    private void submit() {
        if (!toSubmit.isEmpty()) {
            dispatcher.submitAll(toSubmit);
            toSubmit.clear();
        }
    }
}
