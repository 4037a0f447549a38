package dev.kafkafetch.dispatch;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.kafka.common.TopicPartition;

/**
 * The partitions an operator paused, as the {@link Dispatcher} sees them: a ready record of such a partition is put
 * aside instead of started, keeping its lane (so the records behind it in its lane wait too), and goes back to the
 * ready queue, in order, when its partition is resumed. Nothing is dropped or sought back, so a resume delivers
 * nothing twice. Batches are never put aside (they may hold other partitions' records). Guarded by the dispatcher's
 * lock.
 */
final class HeldPartitions {

    private final Set<TopicPartition> held = new HashSet<>();
    private final ArrayDeque<WorkItem> aside = new ArrayDeque<>();

    /** True when the ready record must not start now: its partition is held. */
    boolean holds(WorkItem ready) {
        return !held.isEmpty() && ready.batch == null && held.contains(ready.topicPartition());
    }

    void putAside(WorkItem item) {
        aside.add(item);
    }

    void hold(TopicPartition partition) {
        held.add(partition);
    }

    /** Releases a partition; its records put aside go back to {@code ready}, in the order they were put aside. */
    void release(TopicPartition partition, ArrayDeque<WorkItem> ready) {
        if (held.remove(partition)) {
            for (Iterator<WorkItem> it = aside.iterator(); it.hasNext();) {
                WorkItem item = it.next();
                if (item.topicPartition().equals(partition)) {
                    it.remove();
                    ready.add(item);
                }
            }
        }
    }

    /** Removes the records put aside that match, into {@code into}. */
    void removeIf(Predicate<WorkItem> which, List<WorkItem> into) {
        for (Iterator<WorkItem> it = aside.iterator(); it.hasNext();) {
            WorkItem item = it.next();
            if (which.test(item)) {
                it.remove();
                into.add(item);
            }
        }
    }

    /** Removes one record put aside; false when it is not there. */
    boolean remove(WorkItem item) {
        return aside.removeIf(i -> i == item);
    }
}
