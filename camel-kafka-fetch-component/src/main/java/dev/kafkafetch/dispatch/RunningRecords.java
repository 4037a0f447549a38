package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The records a {@link Dispatcher} runs now: an intrusive doubly-linked list through the work items (O(1) add and
 * remove, no hashing, no allocation per record), and its size. Guarded by the dispatcher's lock.
 */
final class RunningRecords {

    private WorkItem head;
    private int size;

    int size() {
        return size;
    }

    void add(WorkItem item) {
        item.runPrev = null;
        item.runNext = head;
        if (head != null) {
            head.runPrev = item;
        }
        head = item;
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

    int count(Predicate<WorkItem> which) {
        int n = 0;
        for (WorkItem w = head; w != null; w = w.runNext) {
            if (which.test(w)) {
                n++;
            }
        }
        return n;
    }

    /** When the longest-running record started (System.nanoTime()), 0 when none runs. */
    long oldestStartedAtNanos() {
        long oldest = 0;
        for (WorkItem w = head; w != null; w = w.runNext) {
            long started = w.startedAtNanos;
            if (started != 0 && (oldest == 0 || started < oldest)) {
                oldest = started;
            }
        }
        return oldest;
    }
}
