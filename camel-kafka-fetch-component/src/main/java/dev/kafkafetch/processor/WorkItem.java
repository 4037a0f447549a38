package dev.kafkafetch.processor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import dev.kafkafetch.window.PartitionWindow;
import org.apache.kafka.common.header.Headers;

/**
 * One polled record on its way through the route: what was polled (raw and decoded), where it sits in its partition's
 * window, and its progress. Created by the fetch thread; run by a worker; handed back to the fetch thread as a
 * completion. The state moves QUEUED → RUNNING → DONE, or to CANCELLED (never run) or ABANDONED (stalled and given
 * up on); a transition happens once, so a late completion of an abandoned record is recognised and ignored.
 */
public final class WorkItem {

    public static final int QUEUED = 0;
    public static final int RUNNING = 1;
    public static final int DONE = 2;
    public static final int CANCELLED = 3;
    public static final int ABANDONED = 4;

    final PartitionWindow window;
    final long seq;
    final long offset;
    final long timestamp;
    final byte[] rawKey;
    final byte[] rawValue;
    final Headers headers;
    final Object key;
    final Object value;
    final Exception decodeError;
    final long polledAtNanos;

    /** For a batch: the records it carries (this item is then a carrier, not a record of its own). */
    final java.util.List<WorkItem> batch;
    /** 1 on the first delivery of this offset, counted up by breakOnFirstError re-deliveries. */
    int attempt = 1;
    boolean lastRecordBeforeCommit;
    boolean lastPollRecord;
    /** The route failed it and breakOnFirstError asks to seek back to it. */
    volatile boolean breakRequested;

    Object lane;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WorkItem.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private volatile int state = QUEUED;
    /** The dispatcher's intrusive list of running records (guarded by the dispatcher's lock). */
    WorkItem runPrev;
    WorkItem runNext;
    boolean inRunning;
    /** Set by the worker running it when Camel reported completion on that same thread (read by that thread only). */
    boolean doneHere;
    volatile long startedAtNanos;
    volatile Thread worker;
    /** Why the record is finished without success: null when it succeeded or was handled. */
    volatile Exception failure;
    volatile String failureReason;
    /** Written and read by the fetch thread only. */
    private boolean stallReported;

    public WorkItem(PartitionWindow window, long seq, long offset, long timestamp, byte[] rawKey, byte[] rawValue,
                    Headers headers, Object key, Object value, Exception decodeError, long polledAtNanos) {
        this.window = window;
        this.seq = seq;
        this.offset = offset;
        this.timestamp = timestamp;
        this.rawKey = rawKey;
        this.rawValue = rawValue;
        this.headers = headers;
        this.key = key;
        this.value = value;
        this.decodeError = decodeError;
        this.polledAtNanos = polledAtNanos;
        this.batch = null;
    }

    /** A batch of records processed as one exchange; it finishes (or fails) as a whole. */
    public WorkItem(java.util.List<WorkItem> batch) {
        WorkItem first = batch.get(0);
        this.window = first.window;
        this.seq = first.seq;
        this.offset = first.offset;
        this.timestamp = first.timestamp;
        this.rawKey = null;
        this.rawValue = null;
        this.headers = null;
        this.key = null;
        this.value = null;
        this.decodeError = null;
        this.polledAtNanos = first.polledAtNanos;
        this.batch = java.util.List.copyOf(batch);
    }

    /** The records of a batch, or null for a single record. */
    public java.util.List<WorkItem> batch() {
        return batch;
    }

    public boolean isBatch() {
        return batch != null;
    }

    public int attempt() {
        return attempt;
    }

    public void attempt(int attempt) {
        this.attempt = attempt;
    }

    public boolean lastRecordBeforeCommit() {
        return lastRecordBeforeCommit;
    }

    public boolean lastPollRecord() {
        return lastPollRecord;
    }

    public void positionInPoll(boolean lastOfPartition, boolean lastOfPoll) {
        this.lastRecordBeforeCommit = lastOfPartition;
        this.lastPollRecord = lastOfPoll;
    }

    public boolean breakRequested() {
        return breakRequested;
    }

    public void requestBreak() {
        this.breakRequested = true;
    }

    public PartitionWindow window() {
        return window;
    }

    public long seq() {
        return seq;
    }

    public String topic() {
        return window.partition().topic();
    }

    public int partition() {
        return window.partition().partition();
    }

    public long offset() {
        return offset;
    }

    public long timestamp() {
        return timestamp;
    }

    public byte[] rawKey() {
        return rawKey;
    }

    public byte[] rawValue() {
        return rawValue;
    }

    public Headers headers() {
        return headers;
    }

    public Object key() {
        return key;
    }

    public Object value() {
        return value;
    }

    /** The error that kept the key or value from being deserialized, or null. */
    public Exception decodeError() {
        return decodeError;
    }

    public int state() {
        return state;
    }

    boolean transition(int from, int to) {
        return STATE.compareAndSet(this, from, to);
    }

    public long startedAtNanos() {
        return startedAtNanos;
    }

    public long polledAtNanos() {
        return polledAtNanos;
    }

    public Thread worker() {
        return worker;
    }

    public Exception failure() {
        return failure;
    }

    public String failureReason() {
        return failureReason;
    }

    public boolean stallReported() {
        return stallReported;
    }

    public void markStallReported() {
        stallReported = true;
    }

    public void fail(String reason, Exception cause) {
        this.failureReason = reason;
        this.failure = cause;
    }

    @Override
    public String toString() {
        return batch != null ? "batch of " + batch.size() + " from " + window.partition() + "@" + offset
                : window.partition() + "@" + offset;
    }
}
