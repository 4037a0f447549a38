package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The records a {@link Dispatcher} runs now: an intrusive doubly-linked list through the work items in the order they
 * took their slots (O(1) add and remove, no hashing, no allocation per record), and its size. The oldest is at the
 * head, so {@link #oldestStartedAtNanos()}, read for every snapshot of the task, is O(1) however many run, and
 * {@link #since} reads only the records it returns. Guarded by the dispatcher's lock.
 */
final class RunningRecords {

    private WorkItem head;
    private WorkItem tail;
    private int size;

    int size() {
        return size;
    }

    /** Appends the item, which takes its slot now. */
    void add(WorkItem item) {
        item.runningSinceNanos = System.nanoTime();
        item.runNext = null;
        item.runPrev = tail;
        if (tail != null) {
            tail.runNext = item;
        } else {
            head = item;
        }
        tail = item;
        item.inRunning = true;
        size++;
    }

    /** Removes the item; nothing when it is not in the list. */
    void remove(WorkItem item) {
        if (!item.inRunning) {
            return;
        }
        if (item.runPrev != null) {
            item.runPrev.runNext = item.runNext;
        } else {
            head = item.runNext;
        }
        if (item.runNext != null) {
            item.runNext.runPrev = item.runPrev;
        } else {
            tail = item.runPrev;
        }
        item.runPrev = null;
        item.runNext = null;
        item.inRunning = false;
        size--;
    }

    List<WorkItem> copy() {
        List<WorkItem> copy = new ArrayList<>(size);
        for (WorkItem w = head; w != null; w = w.runNext) {
            copy.add(w);
        }
        return copy;
    }

    /**
     * The records that took their slot at or before {@code cutOffNanos} (System.nanoTime()), oldest first. They are a
     * prefix of the list, so this reads only them and the first younger one, however many run.
     */
    List<WorkItem> since(long cutOffNanos) {
        List<WorkItem> older = new ArrayList<>();
        for (WorkItem w = head; w != null && w.runningSinceNanos - cutOffNanos <= 0; w = w.runNext) {
            older.add(w);
        }
        return older;
    }

    int count(Predicate<WorkItem> which) {
        int n = 0;
        for (WorkItem w = head; w != null; w = w.runNext) {
            if (which.test(w)) {
                n++;
            }
        }
        return n;
    }

    /**
     * When the longest-running record took its slot (System.nanoTime()), 0 when none runs. O(1): the list is in the
     * order the records took their slots (a record handed to a worker that has not picked it up yet counts from then).
     */
    long oldestStartedAtNanos() {
        return head == null ? 0 : head.runningSinceNanos;
    }
}
