package dev.kafkafetch.task;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.window.PartitionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeks partitions back, for failed records to be delivered again (breakOnFirstError, the Pausable EIP) and for kept
 * partitions of a batch dropped by a rebalance.
 * <p>
 * Guarantees: a partition sought back to an offset has every record from that offset on dropped from its window, the
 * dispatcher and the batch collector first (a dropped batch seeks its other partitions back too), so nothing behind
 * the seek runs twice or is committed before it is polled again. A record dropped while its partition waits for its
 * own failed record's seek back is remembered ("parked") and sought back with it. Fetch thread only, outside
 * rebalance callbacks for failures.
 */
final class SeekBacks {

    private static final Logger LOG = LoggerFactory.getLogger(SeekBacks.class);

    private final String taskName;
    private final TaskSettings settings;
    private final Dispatcher dispatcher;
    private final TaskMetrics metrics;
    private final Function<Predicate<WorkItem>, List<WorkItem>> stopStarting;
    /** Records dropped for partitions whose own seek back is still to come: the lowest offset of each. */
    private final Map<PartitionState, Long> parked = new HashMap<>();
    private TaskConsumer consumer;
    private BiConsumer<PartitionState, Long> seekingBack = (state, offset) -> {
    };

    /** @param stopStarting cancels the matching records queued in the dispatcher or collected, and returns them */
    SeekBacks(String taskName, TaskSettings settings, Dispatcher dispatcher, TaskMetrics metrics,
              Function<Predicate<WorkItem>, List<WorkItem>> stopStarting) {
        this.taskName = taskName;
        this.settings = settings;
        this.dispatcher = dispatcher;
        this.metrics = metrics;
        this.stopStarting = stopStarting;
    }

    /** Told of every seek back before it is made (the partition, and the offset its records are polled again from). */
    void onSeekBack(BiConsumer<PartitionState, Long> listener) {
        this.seekingBack = listener;
    }

    void attach(TaskConsumer consumer) {
        this.consumer = consumer;
    }

    /** The partition was retired: nothing of it is sought back any more. */
    void forget(PartitionState state) {
        parked.remove(state);
    }

    void clear() {
        parked.clear();
    }

    /**
     * breakOnFirstError and Pausable EIP failures: seeks each failed record's partition back to it (a batch: each of
     * its partitions to its first record there), dropping whatever was queued or collected behind it. Other partitions
     * and the group are not touched; nothing is committed here.
     */
    void seekBack(List<WorkItem> failed) {
        // what the dispatcher dropped because one of its partitions waits for a seek back: that partition is parked
        // (its own seek back is asked for below), and a batch's other partitions are sought back to it too
        Map<PartitionState, Long> targets = new HashMap<>();
        for (WorkItem dropped : dispatcher.cancel(i -> false)) {
            for (WorkItem r : dropped.records()) {
                dropTo(targets, r);
            }
        }
        Set<PartitionState> asked = new HashSet<>();
        for (WorkItem item : failed) {
            metrics.redelivering();
            Map<PartitionState, Long> firsts = new HashMap<>();
            Map<PartitionState, Long> lasts = new HashMap<>();
            for (WorkItem r : item.records()) {
                asked.add(r.partitionState());
                if (r.partitionState().holdsUnfinished(r.seq(), r.generation())) {
                    firsts.merge(r.partitionState(), r.offset(), Math::min);
                    lasts.merge(r.partitionState(), r.offset(), Math::max);
                }
            }
            firsts.forEach((state, offset) -> {
                state.redeliver(offset, lasts.get(state), item.attempt() + 1);
                targets.merge(state, offset, Math::min);
                LOG.warn("Fetch task {}: {} failed (delivery attempt {}{}); seeking {} back to offset {}", taskName,
                        item,
                        item.attempt(), settings.breakOnFirstErrorMaxAttempts() > 0
                                ? " of " + settings.breakOnFirstErrorMaxAttempts() : "",
                        state.partition(), offset);
            });
        }
        for (PartitionState state : asked) {
            // a failed record that an earlier seek back dropped already is polled again anyway
            Long parkedOffset = parked.remove(state);
            if (parkedOffset != null && !state.isRetired()) {
                targets.merge(state, parkedOffset, Math::min);
            } else if (!targets.containsKey(state)) {
                state.clearBreakPending();
            }
        }
        rewind(targets);
    }

    /**
     * Seeks partitions back to the given offsets, after cancelling every record of them still queued or collected;
     * a cancelled batch that also holds records of other partitions seeks those back too.
     */
    private void rewind(Map<PartitionState, Long> targets) {
        boolean grew = true;
        while (grew && !targets.isEmpty()) {
            grew = false;
            for (WorkItem item : stopStarting.apply(i -> i.touches(targets::containsKey))) {
                for (WorkItem r : item.records()) {
                    grew |= dropTo(targets, r);
                }
            }
        }
        targets.forEach((state, offset) -> {
            seekingBack.accept(state, offset);
            state.rewind(offset);
            consumer.seek(state.partition(), offset);
        });
    }

    /** A record that will not run: its partition must be sought back to it. True when a new partition joined. */
    private boolean dropTo(Map<PartitionState, Long> targets, WorkItem record) {
        PartitionState state = record.partitionState();
        if (state.isRetired()) {
            return false;
        }
        if (!targets.containsKey(state) && state.isBreakPending()) {
            parked.merge(state, record.offset(), Math::min); // its own failed record is on its way
            return false;
        }
        boolean added = !targets.containsKey(state);
        targets.merge(state, record.offset(), Math::min);
        return added;
    }

    /** Seeks the live partitions of these dropped items back to their first dropped record. */
    void rewindTo(Collection<WorkItem> dropped) {
        Map<PartitionState, Long> targets = new HashMap<>();
        for (WorkItem item : dropped) {
            for (WorkItem r : item.records()) {
                dropTo(targets, r); // retired ones are skipped; those waiting for their own seek back are parked
            }
        }
        rewind(targets);
    }
}
