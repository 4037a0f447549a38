package dev.kafkafetch.dispatch;

import java.util.ArrayDeque;
import java.util.Arrays;
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
    /** Busy lanes: their head (ready or running) and the records waiting behind it; an idle lane has no entry. */
    private final Map<Object, Lane> busy = new HashMap<>();

    Lanes(Ordering ordering, boolean batchesInOrder) {
        this.ordering = ordering;
        this.batchesInOrder = batchesInOrder;
    }

    /**
     * The item's lane key (null: no lane), from what never changes on it: the fetch thread computes it before it takes
     * the dispatcher's lock, so that lock is not held while a key is hashed.
     */
    Object keyOf(WorkItem item) {
        if (item.batch != null) {
            return batchesInOrder ? BATCH_LANE : null;
        }
        switch (ordering) {
            case PARTITION:
                return item.topicPartition();
            case KEY:
                return item.rawKey == null ? null : new KeyLane(item.topicPartition(), item.rawKey);
            default:
                return null;
        }
    }

    /** Puts the item (its {@code lane} set by {@link #keyOf}) in its lane; true when it may be ready at once. */
    boolean admit(WorkItem item) {
        Object laneKey = item.lane;
        if (laneKey == null) {
            return true;
        }
        Lane lane = busy.get(laneKey);
        if (lane == null) {
            item.heads = new Lane(item); // the lane was idle: its record is ready, the lane now busy
            busy.put(laneKey, item.heads);
            return true;
        }
        lane.add(item);
        return false;
    }

    /**
     * The item (ready, running or gone) leaves the head of its lane: the lane's next record, or null (the lane is idle,
     * or the item heads none).
     */
    WorkItem release(WorkItem item) {
        Lane lane = item.heads;
        if (lane == null) {
            return null;
        }
        item.heads = null;
        WorkItem next = lane.waiting == null ? null : lane.waiting.poll();
        if (next == null) {
            busy.remove(item.lane);
        } else {
            lane.head = next;
            next.heads = lane;
        }
        return next;
    }

    /** Takes a record waiting behind its lane's head out of the lane; false when it is not waiting there. */
    boolean removeWaiting(WorkItem item) {
        Lane lane = item.lane != null ? busy.get(item.lane) : null;
        return lane != null && lane.waiting != null && lane.waiting.remove(item);
    }

    /** How many records wait behind the item in its lane (0 without a lane, or when it is not in one). */
    int waitingBehind(WorkItem item) {
        Lane lane = item.lane != null ? busy.get(item.lane) : null;
        if (lane == null || lane.waiting == null) {
            return 0;
        }
        if (lane.head == item) {
            return lane.waiting.size();
        }
        int before = 0;
        for (WorkItem w : lane.waiting) {
            if (w == item) {
                return lane.waiting.size() - before - 1;
            }
            before++;
        }
        return 0;
    }

    /**
     * The record at the head of the lane the item waits in (ready or running, possibly an execution from before a seek
     * back or a re-assignment); null when the item is that head or has no lane.
     */
    WorkItem headAhead(WorkItem item) {
        Lane lane = item.lane != null ? busy.get(item.lane) : null;
        return lane == null || lane.head == item ? null : lane.head;
    }

    /** Removes every waiting record that matches and hands it to {@code removed}; the lane heads are left alone. */
    void removeWaitingIf(Predicate<WorkItem> which, Consumer<WorkItem> removed) {
        for (Lane lane : busy.values()) {
            if (lane.waiting == null) {
                continue;
            }
            for (Iterator<WorkItem> it = lane.waiting.iterator(); it.hasNext();) {
                WorkItem item = it.next();
                if (which.test(item)) {
                    it.remove();
                    removed.accept(item);
                }
            }
        }
    }

    /** A busy lane: its head, ready or running, and the records waiting behind it in submission order. */
    static final class Lane {
        WorkItem head;
        /** Null until a record waits (most lanes of many keys never have one). */
        ArrayDeque<WorkItem> waiting;

        Lane(WorkItem head) {
            this.head = head;
        }

        void add(WorkItem item) {
            if (waiting == null) {
                waiting = new ArrayDeque<>(4);
            }
            waiting.add(item);
        }
    }

    /** Lane of one key within one partition; keys compare by their bytes, the hash computed once. */
    private static final class KeyLane {
        private final TopicPartition partition;
        private final byte[] key;
        private final int hash;

        KeyLane(TopicPartition partition, byte[] key) {
            this.partition = partition;
            this.key = key;
            this.hash = 31 * partition.hashCode() + Arrays.hashCode(key);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof KeyLane other && hash == other.hash && Arrays.equals(key, other.key)
                   && partition.equals(other.partition);
        }
    }
}
