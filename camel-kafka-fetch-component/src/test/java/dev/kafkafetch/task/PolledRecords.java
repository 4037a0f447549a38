package dev.kafkafetch.task;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;

/** Test fixture: a record polled into its partition's window, as the fetch loop's intake puts it there. */
final class PolledRecords {

    private PolledRecords() {
    }

    /** The record at {@code offset} of {@code tp}, appended to its window and attached to its slot. */
    static WorkItem polled(PartitionStates states, TopicPartition tp, long offset) {
        PartitionState state = states.stateOf(tp);
        int generation = state.generation();
        long seq = state.append(offset);
        WorkItem item = new WorkItem(state, seq, generation, 1, offset, 0L, null, null, null, null, "v" + offset,
                null);
        state.attach(seq, generation, item);
        return item;
    }
}
