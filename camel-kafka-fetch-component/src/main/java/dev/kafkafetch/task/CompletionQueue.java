package dev.kafkafetch.task;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import dev.kafkafetch.dispatch.WorkItem;

/**
 * Finished records on their way from workers (and dead-letter acknowledgements) to the fetch thread, and the
 * back-pressure that keeps the task's window bounded.
 * <p>
 * Guarantees: {@link #offer} never blocks (a lock-free queue). Back-pressure pauses the task's partitions before the
 * records held since the committable offsets, finished or not, plus one more poll could pass
 * {@code maxInFlightRecords} (docs/design.md §4.3), and lifts the pause once they fell to the low-water mark; the
 * completion that can bring them there wakes the fetch thread, so it resumes at once instead of at the end of its poll.
 */
final class CompletionQueue {

    private final ConcurrentLinkedQueue<WorkItem> queue = new ConcurrentLinkedQueue<>();
    private final Runnable wakeFetchThread;
    private final int maxHeld;
    private final int pollSize;
    private final int lowWater;
    /** Records offered so far (any thread), and the count at which the fetch thread is woken up. */
    private final AtomicLong offered = new AtomicLong();
    private volatile long wakeAt = Long.MAX_VALUE;
    // fetch thread
    private long taken;
    private boolean paused;

    CompletionQueue(int maxInFlightRecords, int maxPollRecords, Runnable wakeFetchThread) {
        this.maxHeld = maxInFlightRecords;
        this.pollSize = maxPollRecords;
        this.lowWater = Math.min(maxInFlightRecords / 2, maxInFlightRecords - maxPollRecords);
        this.wakeFetchThread = wakeFetchThread;
    }

    /** Any thread: hands a finished record (or batch) to the fetch thread. */
    void offer(WorkItem item) {
        queue.offer(item);
        int records = item.isBatch() ? item.batch().size() : 1;
        long after = offered.addAndGet(records);
        long at = wakeAt;
        if (after >= at && after - records < at) {
            wakeFetchThread.run();
        }
    }

    /** Fetch thread: the next finished record, or null. */
    WorkItem poll() {
        WorkItem item = queue.poll();
        if (item != null) {
            taken += item.isBatch() ? item.batch().size() : 1;
        }
        return item;
    }

    /**
     * Fetch thread: decides whether the partitions must be paused for back-pressure, given the records held and how
     * many of them are unfinished. Returns true while paused.
     */
    boolean update(int held, int unfinished) {
        if (!paused && held + pollSize > maxHeld) {
            paused = true;
        } else if (paused && held <= lowWater) {
            paused = false;
        }
        // a completion may release many held records (at the head) or none (behind an unfinished one): wake once as
        // many came back as could reach the low-water mark, and at the latest when every unfinished one did
        wakeAt = paused ? taken + Math.max(1, Math.min(held - lowWater, unfinished)) : Long.MAX_VALUE;
        return paused;
    }

    boolean paused() {
        return paused;
    }

    /** A new consumer starts unpaused. */
    void reset() {
        paused = false;
        wakeAt = Long.MAX_VALUE;
    }
}
