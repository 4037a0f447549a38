package dev.kafkafetch.processor;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.WorkItem;

/**
 * The batch facade's collector: gathers polled records into one batch per poll, or per {@code batchingIntervalMs}
 * (counted from the batch's first record), never more than {@code maxPollRecords}. Records that could not be
 * deserialized are never put in a batch: they are handled alone by the failure rules. Fetch thread only.
 */
public final class BatchCollector {

    private final long intervalMs;
    private final int maxRecords;
    private final List<WorkItem> pending = new ArrayList<>();
    private long startedMs;

    /** @param intervalMs 0 = one batch per poll */
    public BatchCollector(long intervalMs, int maxRecords) {
        this.intervalMs = intervalMs;
        this.maxRecords = maxRecords;
    }

    /** Adds a polled record; returns a full batch to submit, or null. */
    public WorkItem add(WorkItem record, long nowMs) {
        if (pending.isEmpty()) {
            startedMs = nowMs;
        }
        pending.add(record);
        return pending.size() >= maxRecords ? take() : null;
    }

    /** The batch that is due now (after a poll that returned records, or once the interval passed), or null. */
    public WorkItem takeIfDue(long nowMs, boolean polledRecords) {
        if (pending.isEmpty()) {
            return null;
        }
        boolean due = intervalMs == 0 ? polledRecords : nowMs - startedMs >= intervalMs;
        return due ? take() : null;
    }

    /** How long the fetch thread may wait before the pending batch is due; Long.MAX_VALUE when nothing waits. */
    public long millisUntilDue(long nowMs) {
        return pending.isEmpty() || intervalMs == 0 ? Long.MAX_VALUE : Math.max(0, startedMs + intervalMs - nowMs);
    }

    /** Removes and returns the collected records that match (their partition is revoked or sought back). */
    public List<WorkItem> remove(Predicate<WorkItem> which) {
        List<WorkItem> removed = new ArrayList<>();
        for (Iterator<WorkItem> it = pending.iterator(); it.hasNext();) {
            WorkItem record = it.next();
            if (which.test(record)) {
                it.remove();
                removed.add(record);
            }
        }
        return removed;
    }

    private WorkItem take() {
        WorkItem batch = new WorkItem(pending);
        pending.clear();
        return batch;
    }
}
