package dev.kafkafetch.window;

import java.util.function.LongConsumer;

/**
 * The polled records of one assigned partition that are not yet committable: from the first unfinished one to the
 * newest polled one.
 * <p>
 * Guarantee: {@link #committable()} is never past the first polled offset that is not finished; when every polled
 * record is finished it is the last polled offset + 1. Offsets need not be contiguous (compaction and transaction
 * markers leave gaps): the window stores the offsets actually polled, in poll order.
 * <p>
 * A ring of {@code long} offsets plus, per slot, a finished bit and the generation it was appended in:
 * {@link #append} on poll, {@link #finish} on completion, the head advances over finished slots. A seek back
 * ({@link #truncateFrom}) drops the newest slots and starts a new generation, so a late completion of a dropped record
 * can never finish the record that is polled again into its slot. O(1) amortised per record, no boxing, memory
 * proportional to {@link #size()} (the ring grows by doubling). Confined to the fetch thread.
 */
public final class PartitionWindow {

    private static final int INITIAL_CAPACITY = 64;

    private long[] offsets = new long[INITIAL_CAPACITY];
    private boolean[] finished = new boolean[INITIAL_CAPACITY];
    private int[] generations = new int[INITIAL_CAPACITY];
    /** Per slot, the record object an unfinished slot stands for (see {@link #attach}); cleared when it finishes. */
    private Object[] records = new Object[INITIAL_CAPACITY];
    private int mask = INITIAL_CAPACITY - 1;
    /** Sequence number of the oldest slot still held (the first unfinished record, or tail when empty). */
    private long head;
    /** Sequence number of the oldest slot not yet overwritten (released slots stay readable for {@link #reopen}). */
    private long floor;
    /** Sequence number the next appended record gets. */
    private long tail;
    private int generation;
    private int unfinished;
    /** Offset + 1 of the newest record released from the head, or -1 when none yet. */
    private long releasedUpTo = -1;
    private long lastPolled = -1;

    /**
     * Records a polled offset and returns its sequence number, to be handed back to {@link #finish} together with
     * {@link #generation()} as it is now.
     *
     * @throws IllegalArgumentException if the offset is not greater than the newest one held
     */
    public long append(long offset) {
        if (tail > head && offset <= offsets[slot(tail - 1)]) {
            throw new IllegalArgumentException("offset " + offset + " is not after the previous polled offset "
                                               + offsets[slot(tail - 1)]);
        }
        if (tail - head == offsets.length) {
            grow();
        }
        if (tail - floor == offsets.length) {
            floor++; // its slot is overwritten now
        }
        int slot = slot(tail);
        offsets[slot] = offset;
        finished[slot] = false;
        generations[slot] = generation;
        records[slot] = null;
        unfinished++;
        lastPolled = offset;
        return tail++;
    }

    /**
     * True when a record at {@code offset} or after it was polled since the window's last seek back: a record polled
     * at such an offset again is a repeat (a consumer interceptor repeating records, or offsets re-used after a log
     * truncation), which {@link #append} refuses.
     */
    public boolean polledAtOrAfter(long offset) {
        return lastPolled >= offset;
    }

    /** The generation records appended now belong to. */
    public int generation() {
        return generation;
    }

    /**
     * Marks a record finished. Returns false, changing nothing, when that record was already finished, was dropped by
     * {@link #truncateFrom}, or was released.
     */
    public boolean finish(long seq, int appendedIn) {
        if (seq < head || seq >= tail) {
            return false;
        }
        int slot = slot(seq);
        if (finished[slot] || generations[slot] != appendedIn) {
            return false;
        }
        finished[slot] = true;
        records[slot] = null;
        unfinished--;
        while (head < tail && finished[slot(head)]) {
            releasedUpTo = offsets[slot(head)] + 1;
            head++;
        }
        return true;
    }

    /**
     * Makes a finished record unfinished again, moving the committable offset back to it if it had been released: for
     * a finish that a failed manual commit did not make durable. Returns false, changing nothing, when the record is
     * not finished here, was dropped by {@link #truncateFrom}, or its slot was overwritten since (the caller must not
     * have committed past it).
     */
    public boolean reopen(long seq, int appendedIn) {
        if (seq < floor || seq >= tail || !finished[slot(seq)] || generations[slot(seq)] != appendedIn) {
            return false;
        }
        finished[slot(seq)] = false;
        unfinished++;
        if (seq < head) {
            head = seq;
            releasedUpTo = offsets[slot(seq)];
        }
        return true;
    }

    /** True when the record is held here and not finished (not released, not dropped by a seek back). */
    public boolean holdsUnfinished(long seq, int appendedIn) {
        return seq >= head && seq < tail && !finished[slot(seq)] && generations[slot(seq)] == appendedIn;
    }

    /**
     * Drops every held record at or after {@code offset} (the partition is sought back there, so they will be polled
     * again) and starts a new generation. Returns how many unfinished records were dropped.
     */
    public int truncateFrom(long offset) {
        int dropped = 0;
        while (tail > head && offsets[slot(tail - 1)] >= offset) {
            tail--;
            records[slot(tail)] = null;
            if (!finished[slot(tail)]) {
                dropped++;
            }
        }
        unfinished -= dropped;
        generation++;
        lastPolled = tail > head ? offsets[slot(tail - 1)] : Math.min(lastPolled, offset - 1);
        return dropped;
    }

    /**
     * The offset that may be committed: the first unfinished polled offset, or the last polled offset + 1 when all
     * are finished; -1 when nothing was released yet (nothing may be committed).
     */
    public long committable() {
        return releasedUpTo;
    }

    /**
     * The partition was sought to {@code offset} before anything was polled from it ({@code seekTo}): that offset may be
     * committed, since nothing before it is to be routed here. Ignored once a record was polled or released.
     */
    public void startAt(long offset) {
        if (tail == 0 && releasedUpTo < 0 && offset >= 0) {
            releasedUpTo = offset;
        }
    }

    /** Records held that are finished (behind an unfinished one). */
    public int finishedHeld() {
        return (int) (tail - head) - unfinished;
    }

    /** Calls {@code action} with every finished offset still held (above the committable offset), in order. */
    public void forEachFinishedHeld(LongConsumer action) {
        for (long s = head; s < tail; s++) {
            if (finished[slot(s)]) {
                action.accept(offsets[slot(s)]);
            }
        }
    }

    /**
     * Attaches the object an unfinished record is known by (its work item) to its slot, for the operator's questions
     * ({@link #firstUnfinishedRecord}, {@link #unfinishedRecordAt}); dropped when the record finishes or is dropped, so
     * a finished record's payload is never kept. False when the record is not held unfinished here.
     */
    public boolean attach(long seq, int appendedIn, Object record) {
        if (seq < head || seq >= tail || finished[slot(seq)] || generations[slot(seq)] != appendedIn) {
            return false;
        }
        records[slot(seq)] = record;
        return true;
    }

    /** The object attached to the oldest unfinished record, or null (none, or nothing attached). */
    public Object firstUnfinishedRecord() {
        return head < tail ? records[slot(head)] : null;
    }

    /** The object attached to the unfinished record at {@code offset}, or null. O(log size). */
    public Object unfinishedRecordAt(long offset) {
        long lo = head;
        long hi = tail - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            long o = offsets[slot(mid)];
            if (o < offset) {
                lo = mid + 1;
            } else if (o > offset) {
                hi = mid - 1;
            } else {
                return finished[slot(mid)] ? null : records[slot(mid)];
            }
        }
        return null;
    }

    /** Offset of the oldest unfinished record, or -1 when every polled record is finished. */
    public long firstUnfinishedOffset() {
        return head < tail ? offsets[slot(head)] : -1;
    }

    /** The newest polled offset still meaningful for the position, or -1 when nothing was polled. */
    public long lastPolledOffset() {
        return lastPolled;
    }

    /** Polled records that are not finished. */
    public int unfinished() {
        return unfinished;
    }

    /** Records held: from the first unfinished one to the newest polled one, finished or not. */
    public int size() {
        return (int) (tail - head);
    }

    public int capacity() {
        return offsets.length;
    }

    private int slot(long seq) {
        return (int) (seq & mask);
    }

    private void grow() {
        int newCapacity = offsets.length << 1;
        if (newCapacity <= 0) {
            throw new IllegalStateException("partition window cannot grow beyond " + offsets.length);
        }
        long[] newOffsets = new long[newCapacity];
        boolean[] newFinished = new boolean[newCapacity];
        int[] newGenerations = new int[newCapacity];
        Object[] newRecords = new Object[newCapacity];
        int newMask = newCapacity - 1;
        for (long s = head; s < tail; s++) {
            newOffsets[(int) (s & newMask)] = offsets[slot(s)];
            newFinished[(int) (s & newMask)] = finished[slot(s)];
            newGenerations[(int) (s & newMask)] = generations[slot(s)];
            newRecords[(int) (s & newMask)] = records[slot(s)];
        }
        floor = head; // released slots are not copied
        offsets = newOffsets;
        finished = newFinished;
        generations = newGenerations;
        records = newRecords;
        mask = newMask;
    }

    @Override
    public String toString() {
        return "PartitionWindow[unfinished=" + unfinished + " size=" + size() + " committable=" + releasedUpTo + "]";
    }
}
