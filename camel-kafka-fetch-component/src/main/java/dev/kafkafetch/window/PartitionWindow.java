package dev.kafkafetch.window;

import org.apache.kafka.common.TopicPartition;

/**
 * The polled-but-not-yet-committable records of one assigned partition.
 * <p>
 * Guarantee: {@link #committable()} is never past the first polled offset that is not finished; when every polled
 * record is finished it is the last polled offset + 1. Offsets need not be contiguous (compaction and transaction
 * markers leave gaps): the window stores the offsets actually polled, in poll order.
 * <p>
 * A ring of {@code long} offsets plus a finished bit per slot: {@link #append} on poll, {@link #finish} on completion,
 * the head advances over finished slots. O(1) amortised per record, no boxing, memory proportional to the number of
 * records between the first unfinished one and the newest polled one (the ring grows by doubling and never beyond
 * that). Confined to the fetch thread.
 */
public final class PartitionWindow {

    private static final int INITIAL_CAPACITY = 64;

    private final TopicPartition partition;
    private long[] offsets = new long[INITIAL_CAPACITY];
    private boolean[] finished = new boolean[INITIAL_CAPACITY];
    private int mask = INITIAL_CAPACITY - 1;
    /** Sequence number of the oldest slot still held (the first unfinished record, or tail when empty). */
    private long head;
    /** Sequence number the next appended record gets. */
    private long tail;
    private int unfinished;
    /** Offset + 1 of the newest record that was released from the head, or -1 when none yet. */
    private long releasedUpTo = -1;
    private long lastCommitted = -1;
    private long lastPolled = -1;
    private boolean retired;
    /** The offset a manual commit asked for, waiting for earlier records to finish; -1 when none. */
    private long manualTarget = -1;

    public PartitionWindow(TopicPartition partition) {
        this.partition = partition;
    }

    public TopicPartition partition() {
        return partition;
    }

    /**
     * Records a polled offset and returns its sequence number, to be handed back to {@link #finish(long)}.
     *
     * @throws IllegalArgumentException if the offset is not greater than the previously appended one
     */
    public long append(long offset) {
        if (tail > head && offset <= offsets[(int) ((tail - 1) & mask)]) {
            throw new IllegalArgumentException(
                    "offset " + offset + " of " + partition + " is not after the previous polled offset");
        }
        if (tail - head == offsets.length) {
            grow();
        }
        int slot = (int) (tail & mask);
        offsets[slot] = offset;
        finished[slot] = false;
        unfinished++;
        lastPolled = offset;
        return tail++;
    }

    /**
     * Marks the record with the given sequence number finished. Returns false (and changes nothing) when that record
     * was already finished or is no longer in the window.
     */
    public boolean finish(long seq) {
        if (seq < head || seq >= tail) {
            return false;
        }
        int slot = (int) (seq & mask);
        if (finished[slot]) {
            return false;
        }
        finished[slot] = true;
        unfinished--;
        while (head < tail && finished[(int) (head & mask)]) {
            releasedUpTo = offsets[(int) (head & mask)] + 1;
            head++;
        }
        return true;
    }

    /**
     * The offset that may be committed: the first unfinished polled offset, or the last polled offset + 1 when all
     * are finished; -1 when nothing was released yet (nothing may be committed).
     */
    public long committable() {
        return releasedUpTo;
    }

    /** Offset of the oldest unfinished record, or -1 when every polled record is finished. */
    public long firstUnfinishedOffset() {
        return head < tail ? offsets[(int) (head & mask)] : -1;
    }

    /** The newest polled offset, or -1 when nothing was polled. */
    public long lastPolledOffset() {
        return lastPolled;
    }

    /** Polled records that are not finished. */
    public int unfinished() {
        return unfinished;
    }

    /** Slots held: from the first unfinished record to the newest polled one. */
    public int size() {
        return (int) (tail - head);
    }

    public int capacity() {
        return offsets.length;
    }

    public long lastCommitted() {
        return lastCommitted;
    }

    public void committed(long offset) {
        this.lastCommitted = offset;
    }

    /** True when there is a committable offset beyond the last committed one. */
    public boolean hasUncommitted() {
        return releasedUpTo > lastCommitted;
    }

    /** Remembers that a manual commit asked for {@code offset}; kept until it is committed. */
    public void requestManualCommit(long offset) {
        manualTarget = Math.max(manualTarget, offset);
    }

    /**
     * What a manual commit may write now: the offset asked for by hand, but never past the first unfinished record;
     * -1 when there is nothing new to commit.
     */
    public long manualCommittable() {
        long target = Math.min(manualTarget, releasedUpTo);
        return target > lastCommitted ? target : -1;
    }

    /** The partition was revoked, lost or reset: late completions for it must be ignored. */
    public void retire() {
        retired = true;
    }

    public boolean isRetired() {
        return retired;
    }

    private void grow() {
        int newCapacity = offsets.length << 1;
        if (newCapacity <= 0) {
            throw new IllegalStateException("window of " + partition + " cannot grow beyond " + offsets.length);
        }
        long[] newOffsets = new long[newCapacity];
        boolean[] newFinished = new boolean[newCapacity];
        int newMask = newCapacity - 1;
        for (long s = head; s < tail; s++) {
            newOffsets[(int) (s & newMask)] = offsets[(int) (s & mask)];
            newFinished[(int) (s & newMask)] = finished[(int) (s & mask)];
        }
        offsets = newOffsets;
        finished = newFinished;
        mask = newMask;
    }

    @Override
    public String toString() {
        return "PartitionWindow[" + partition + " unfinished=" + unfinished + " size=" + size() + " committable="
               + releasedUpTo + "]";
    }
}
