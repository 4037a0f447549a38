package dev.kafkafetch.window;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

import org.apache.kafka.common.TopicPartition;

/**
 * Everything a fetch task keeps about one partition for as long as it is assigned: the offset window, what was
 * committed, what a manual commit asked for, and which offset is being re-delivered and how often.
 * <p>
 * Guarantees: {@link #committable()} and {@link #manualCommittable()} never pass the first unfinished record; once
 * {@link #retire retired} (revoked, lost, or the consumer closed) nothing finishes in it any more, so a late completion
 * can never move a commit. Created and retired by one owner, the fetch task's partition registry; confined to the fetch
 * thread except the two flags workers read ({@link #isRetired()}, {@link #isBreakPending()}) and the count of dead
 * letters on their way ({@link #deadLetterSent()}, {@link #deadLetterAcked()}).
 */
public final class PartitionState {

    private final TopicPartition partition;
    private final PartitionWindow window = new PartitionWindow();
    private final FinishedOffsets finishedBefore;
    /** Finished records a seek back kept finished (transacted), bit {@code i} = offset {@code keptBase + i}. */
    private BitSet kept;
    private long keptBase;
    private long lastCommitted = -1;
    private long firstPolled = -1;
    /** Finished records held at the last commit: when this changes, the offset map changed too. */
    private int finishedHeldAtCommit;
    private long manualTarget = -1;
    private long redeliveryOffset = -1;
    private long redeliveryUntil = -1;
    private int redeliveryAttempt;
    private long delayedUntilMs;
    private volatile boolean retired;
    private volatile boolean breakPending;
    private volatile boolean dropPending;
    private final AtomicInteger deadLettersPending = new AtomicInteger();

    /** @param committed the group's committed offset when the partition was assigned, or -1 when unknown */
    public PartitionState(TopicPartition partition, long committed) {
        this(partition, committed, null);
    }

    /**
     * @param committed      the group's committed offset when the partition was assigned, or -1 when unknown
     * @param finishedBefore what the commit's offset map says was finished above it, or null
     */
    public PartitionState(TopicPartition partition, long committed, FinishedOffsets finishedBefore) {
        this.partition = partition;
        this.lastCommitted = committed;
        this.finishedBefore = finishedBefore;
    }

    /** True when the commit's offset map says the record at {@code offset} was finished already: not routed again. */
    public boolean finishedBefore(long offset) {
        return finishedBefore != null && finishedBefore.contains(offset)
               || kept != null && offset >= keptBase && offset - keptBase < Integer.MAX_VALUE
                  && kept.get((int) (offset - keptBase));
    }

    /**
     * Transacted, before a seek back to {@code offset}: the records finished from there on stay finished when they are
     * polled again (their outputs stand, and a committed offset map may name them), only the others run again.
     */
    public void keepFinishedFrom(long offset) {
        long base = kept == null ? offset : Math.min(offset, keptBase);
        BitSet merged = new BitSet();
        if (kept != null) {
            kept.stream().forEach(i -> merged.set((int) (i + keptBase - base)));
        }
        window.forEachFinishedHeld(o -> {
            if (o >= offset && o - base < Integer.MAX_VALUE) {
                merged.set((int) (o - base));
            }
        });
        kept = merged;
        keptBase = base;
    }

    /** True when a record at {@code offset} would be a repeat: that offset or a later one was polled already. */
    public boolean polledAlready(long offset) {
        return window.polledAtOrAfter(offset);
    }

    public TopicPartition partition() {
        return partition;
    }

    /** Records a polled offset; returns its sequence number in the window (see {@link #generation()}). */
    public long append(long offset) {
        if (firstPolled < 0) {
            firstPolled = offset;
        }
        return window.append(offset);
    }

    /** The first offset polled since the partition was assigned, or -1: where it started without a commit. */
    public long firstPolledOffset() {
        return firstPolled;
    }

    public int generation() {
        return window.generation();
    }

    /** Attaches the record's work item to its slot (see {@link PartitionWindow#attach}). */
    public void attach(long seq, int generation, Object record) {
        window.attach(seq, generation, record);
    }

    /** The work item of the oldest unfinished record, or null. */
    public Object oldestUnfinishedRecord() {
        return window.firstUnfinishedRecord();
    }

    /** The work item of the unfinished record at {@code offset}, or null when it is not held here unfinished. */
    public Object unfinishedRecordAt(long offset) {
        return retired ? null : window.unfinishedRecordAt(offset);
    }

    /** Marks a record finished; false when it was already, or no longer belongs here (dropped, or retired). */
    public boolean finish(long seq, int generation) {
        return !retired && window.finish(seq, generation);
    }

    /**
     * Unfinishes a record whose finish a failed manual commit did not make durable; false when it cannot be (retired,
     * dropped, long released, or already committed past).
     */
    public boolean reopen(long seq, int generation, long offset) {
        return !retired && offset >= lastCommitted && window.reopen(seq, generation);
    }

    /** True when the record is still waiting here to be finished (not dropped by a seek back, not retired). */
    public boolean holdsUnfinished(long seq, int generation) {
        return !retired && window.holdsUnfinished(seq, generation);
    }

    /** How often the record at {@code offset} has been delivered so far by this task, plus one. */
    public int attemptFor(long offset) {
        return offset >= redeliveryOffset && offset <= redeliveryUntil ? redeliveryAttempt : 1;
    }

    /** Seeks back: drops every held record from {@code offset} on (they will be polled again); records may start. */
    public void rewind(long offset) {
        window.truncateFrom(offset);
        breakPending = false;
        dropPending = false;
    }

    /**
     * The records from {@code offset} to {@code until} (a failed record, or a failed batch's records of this partition)
     * will be polled again as delivery {@code nextAttempt}.
     */
    public void redeliver(long offset, long until, int nextAttempt) {
        redeliveryOffset = offset;
        redeliveryUntil = until;
        redeliveryAttempt = nextAttempt;
    }

    /** A worker saw one of this partition's records fail and asked to seek back: nothing of it may start now. */
    public void markBreakPending() {
        breakPending = true;
    }

    /** The seek back asked for is not needed after all (the record was dropped by an earlier one): records may start. */
    public void clearBreakPending() {
        breakPending = false;
    }

    public boolean isBreakPending() {
        return breakPending;
    }

    /**
     * Any thread: the dispatcher dropped one of its records (it shared a batch with a partition waiting for a seek
     * back): nothing of it may start until the fetch thread sought it back to that record.
     */
    public void markDropPending() {
        dropPending = true;
    }

    /** True while a seek back is asked for or a dropped record waits for one: no record of it may start. */
    public boolean isBlocked() {
        return breakPending || dropPending || retired;
    }

    /** Paused until then (epoch ms): its next record is a retry letter that is not due yet; 0 when not delayed. */
    public long delayedUntil() {
        return delayedUntilMs;
    }

    public void delayUntil(long epochMs) {
        delayedUntilMs = epochMs;
    }

    /** Any thread: a dead letter of one of its records was handed to the producer. */
    public void deadLetterSent() {
        deadLettersPending.incrementAndGet();
    }

    /** Any thread: that dead letter was acknowledged, and its record's completion queued. */
    public void deadLetterAcked() {
        deadLettersPending.decrementAndGet();
    }

    /** Dead letters of its records not acknowledged yet: a revoke or stop waits for them, as for running records. */
    public int deadLettersPending() {
        return deadLettersPending.get();
    }

    public void retire() {
        retired = true;
    }

    public boolean isRetired() {
        return retired;
    }

    public long committable() {
        return window.committable();
    }

    /**
     * {@code seekTo} put the partition at {@code position} before anything was polled: that position is committable, so
     * a revoke or an interval commit hands it to the next owner, which would otherwise start at autoOffsetReset.
     */
    public void startAt(long position) {
        window.startAt(position);
    }

    /**
     * The offset a commit writes: the committable one; with an offset map, when nothing is committable yet but records
     * finished above the first unfinished one, that first unfinished offset (the map names them). -1 when none.
     */
    public long commitOffset(boolean withMap) {
        long committable = window.committable();
        if (committable >= 0 || !withMap || window.finishedHeld() == 0) {
            return committable;
        }
        return window.firstUnfinishedOffset();
    }

    /** True when a commit would write something new: a further offset, or (with a map) other finished records. */
    public boolean needsCommit(boolean withMap) {
        long offset = commitOffset(withMap);
        return offset > lastCommitted
               || withMap && offset >= 0 && window.finishedHeld() != finishedHeldAtCommit;
    }

    /** Calls {@code action} with every finished offset held above the committable one, in order. */
    public void forEachFinishedHeld(LongConsumer action) {
        window.forEachFinishedHeld(action);
    }

    public long lastCommitted() {
        return lastCommitted;
    }

    public void committed(long offset) {
        if (offset > lastCommitted) {
            lastCommitted = offset;
        }
    }

    /** A commit at {@code offset} went through with the finished records held now in its offset map. */
    public void committedWithMap(long offset) {
        committed(offset);
        finishedHeldAtCommit = window.finishedHeld();
    }

    /** Remembers that a manual commit asked for {@code offset}; kept until committed. */
    public void requestManualCommit(long offset) {
        manualTarget = Math.max(manualTarget, offset);
    }

    /** What manual commits may write now (never past the first unfinished record); -1 when nothing new. */
    public long manualCommittable() {
        long target = Math.min(manualTarget, window.committable());
        return target > lastCommitted ? target : -1;
    }

    /** Offset of the oldest unfinished record, or -1. */
    public long firstUnfinishedOffset() {
        return window.firstUnfinishedOffset();
    }

    public long lastPolledOffset() {
        return window.lastPolledOffset();
    }

    public int unfinished() {
        return window.unfinished();
    }

    /** Records held since the committable offset, finished or not: what maxInFlightRecords bounds. */
    public int held() {
        return window.size();
    }

    @Override
    public String toString() {
        return partition + " " + window;
    }
}
