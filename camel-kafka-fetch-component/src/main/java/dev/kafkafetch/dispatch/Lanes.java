package dev.kafkafetch.dispatch;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.kafka.common.TopicPartition;

/**
 * The ordering lanes of one {@link Dispatcher}: a partition for {@link Ordering#PARTITION}, a key within a partition
 * for {@link Ordering#KEY}, one lane for every batch when batches run in order. Not thread-safe: the dispatcher calls
 * it under its lock.
 * <p>
 * Guarantees: a lane has at most one record ready or running at a time (its head), the others wait in submission
 * order; a lane is keyed by topic-partition and key, never by a partition's state, so a record still running from
 * before a seek back or a re-assignment keeps its lane busy (docs/design.md §4.6).
 */
final class Lanes {

    private static final Object BATCH_LANE = new Object();

    private final Ordering ordering;
    private final boolean batchesInOrder;
    /** Busy lanes: the records waiting behind the one ready or running (an empty deque marks a busy lane). */
    private final Map<Object, ArrayDeque<WorkItem>> waiting = new HashMap<>();

    Lanes(Ordering ordering, boolean batchesInOrder) {
        this.ordering = ordering;
        this.batchesInOrder = batchesInOrder;
    }

    /** Gives the item its lane; true when it may be ready at once (no lane, or its lane was idle). */
    boolean admit(WorkItem item) {
        Object laneKey = laneKey(item);
        item.lane = laneKey;
        if (laneKey == null) {
            return true;
        }
        ArrayDeque<WorkItem> lane = waiting.get(laneKey);
        if (lane == null) {
            waiting.put(laneKey, new ArrayDeque<>(4)); // the lane is idle: its record is ready, the lane now busy
            return true;
        }
        lane.add(item);
        return false;
    }

    /** The item (ready, running or gone) leaves the head of its lane: the lane's next record, or null (lane idle). */
    WorkItem release(WorkItem item) {
        if (item.lane == null) {
            return null;
        }
        ArrayDeque<WorkItem> lane = waiting.get(item.lane);
        if (lane == null) {
            return null;
        }
        WorkItem next = lane.poll();
        if (next == null) {
            waiting.remove(item.lane);
        }
        return next;
    }

    /** Takes a record waiting behind its lane's head out of the lane; false when it is not waiting there. */
    boolean removeWaiting(WorkItem item) {
        ArrayDeque<WorkItem> lane = item.lane != null ? waiting.get(item.lane) : null;
        return lane != null && lane.remove(item);
    }

    /** How many records wait behind the item's lane head (0 without a lane). */
    int waitingBehind(WorkItem item) {
        ArrayDeque<WorkItem> lane = item.lane != null ? waiting.get(item.lane) : null;
        return lane != null ? lane.size() : 0;
    }

    /** Removes every waiting record that matches and hands it to {@code removed}; the lane heads are left alone. */
    void removeWaitingIf(Predicate<WorkItem> which, Consumer<WorkItem> removed) {
        for (ArrayDeque<WorkItem> lane : waiting.values()) {
            for (Iterator<WorkItem> it = lane.iterator(); it.hasNext();) {
                WorkItem item = it.next();
                if (which.test(item)) {
                    it.remove();
                    removed.accept(item);
                }
            }
        }
    }

    private Object laneKey(WorkItem item) {
        if (item.batch != null) {
            return batchesInOrder ? BATCH_LANE : null;
        }
        switch (ordering) {
            case PARTITION:
                return item.topicPartition();
            case KEY:
                return item.rawKey == null ? null : new KeyLane(item.topicPartition(), ByteBuffer.wrap(item.rawKey));
            default:
                return null;
        }
    }

    /** Lane of one key within one partition; keys compare by their bytes. */
    private record KeyLane(TopicPartition partition, ByteBuffer key) {
    }
}
