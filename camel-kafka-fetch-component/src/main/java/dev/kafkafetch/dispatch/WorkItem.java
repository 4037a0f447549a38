package dev.kafkafetch.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.function.Predicate;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;

/**
 * One polled record (or a batch of them) on its way through the route: what was polled, raw and decoded; where it sits
 * in its partition's window; and its progress. Created by the fetch thread, run by a worker, handed back to the fetch
 * thread as a completion.
 * <p>
 * The state moves QUEUED → RUNNING → DONE, or to CANCELLED (never run) or ABANDONED (stalled and given up on). Each
 * transition happens once, so a late completion of an abandoned record is recognised and ignored.
 */
public final class WorkItem {

    public static final int QUEUED = 0;
    public static final int RUNNING = 1;
    public static final int DONE = 2;
    public static final int CANCELLED = 3;
    public static final int ABANDONED = 4;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WorkItem.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final PartitionState partitionState;
    final long seq;
    final int generation;
    final long offset;
    final long timestamp;
    final byte[] rawKey;
    final byte[] rawValue;
    final Headers headers;
    final Object key;
    final Object value;
    final Exception decodeError;
    /** For a batch: the records it carries (this item is then a carrier, not a record of its own). */
    final List<WorkItem> batch;
    /** 1 on the first delivery of this offset, counted up by breakOnFirstError re-deliveries. */
    final int attempt;

    private boolean lastRecordBeforeCommit;
    private boolean lastPollRecord;

    @SuppressWarnings("unused") // through STATE
    private volatile int state = QUEUED;
    /**
     * The dispatcher's lane key (set by the fetch thread before it submits), the lane it heads, and its intrusive list
     * of running records (guarded by the dispatcher's lock).
     */
    Object lane;
    Lanes.Lane heads;
    WorkItem runPrev;
    WorkItem runNext;
    boolean inRunning;
    /** When it took its slot (System.nanoTime()), guarded by the dispatcher's lock. */
    long runningSinceNanos;
    /**
     * Set by the worker running it when Camel reported completion on that same thread inside process() (read by that
     * thread only).
     */
    boolean doneHere;
    /** True while the worker running it is inside process() (written and read by that thread only). */
    boolean inProcess;
    volatile long startedAtNanos;
    /** The thread running it now; null before a worker picks it up, in an asynchronous step, and once finished. */
    volatile Thread worker;
    /** Set by its worker when process() returned before the route completed it: no thread runs it meanwhile. */
    volatile boolean inAsyncStep;
    /** Why the record is finished without success: null when it succeeded or was handled. */
    private volatile Exception failure;
    private volatile String failureReason;
    private volatile boolean breakRequested;
    private volatile boolean deadLettered;
    /**
     * Given back for another delivery (a share group's RELEASE): set only where the outcome is decided, so a stalled
     * record's worker that fails it late cannot turn the decision into a final one.
     */
    private volatile boolean released;
    private volatile boolean retried;
    /** Written and read by the fetch thread only. */
    private boolean stallReported;
    /** With transacted: what this execution sends, held until the record is finished; set before it runs. */
    private volatile RecordOutputs outputs;
    private long polledAtMs;

    public WorkItem(PartitionState partitionState, long seq, int generation, int attempt, long offset, long timestamp,
                    byte[] rawKey, byte[] rawValue, Headers headers, Object key, Object value, Exception decodeError) {
        this.partitionState = partitionState;
        this.seq = seq;
        this.generation = generation;
        this.attempt = attempt;
        this.offset = offset;
        this.timestamp = timestamp;
        this.rawKey = rawKey;
        this.rawValue = rawValue;
        this.headers = headers;
        this.key = key;
        this.value = value;
        this.decodeError = decodeError;
        this.batch = null;
    }

    /** A batch of records processed as one exchange; it finishes (or fails) as a whole, as its latest delivery. */
    public WorkItem(List<WorkItem> records) {
        WorkItem first = records.get(0);
        this.partitionState = first.partitionState;
        this.seq = first.seq;
        this.generation = first.generation;
        this.offset = first.offset;
        this.timestamp = first.timestamp;
        this.rawKey = null;
        this.rawValue = null;
        this.headers = null;
        this.key = null;
        this.value = null;
        this.decodeError = null;
        this.batch = List.copyOf(records);
        int max = 1;
        for (WorkItem r : records) {
            max = Math.max(max, r.attempt);
        }
        this.attempt = max;
    }

    /** The records this item stands for: the batch's, or itself. */
    public List<WorkItem> records() {
        return batch != null ? batch : List.of(this);
    }

    /** The records of a batch, or null for a single record. */
    public List<WorkItem> batch() {
        return batch;
    }

    public boolean isBatch() {
        return batch != null;
    }

    /** True when a record of this item belongs to a partition state that matches. */
    public boolean touches(Predicate<PartitionState> states) {
        if (batch == null) {
            return states.test(partitionState);
        }
        for (WorkItem r : batch) {
            if (states.test(r.partitionState)) {
                return true;
            }
        }
        return false;
    }

    /** True when it must not start: a record's partition is retired or waits for a seek back. */
    boolean isBlocked() {
        return touches(PartitionState::isBlocked);
    }

    public PartitionState partitionState() {
        return partitionState;
    }

    public TopicPartition topicPartition() {
        return partitionState.partition();
    }

    public long seq() {
        return seq;
    }

    public int generation() {
        return generation;
    }

    public int attempt() {
        return attempt;
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

    public String topic() {
        return partitionState.partition().topic();
    }

    public int partition() {
        return partitionState.partition().partition();
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

    public Thread worker() {
        return worker;
    }

    /** Its worker's thread went back while the route goes on asynchronously. */
    void leftForAsyncStep() {
        inAsyncStep = true;
        worker = null;
    }

    /** True once the route went on asynchronously (process() returned before completing it): no thread holds it. */
    public boolean inAsyncStep() {
        return inAsyncStep;
    }

    public Exception failure() {
        return failure;
    }

    public String failureReason() {
        return failureReason;
    }

    public void fail(String reason, Exception cause) {
        this.failureReason = reason;
        this.failure = cause;
    }

    /** The route failed it and asks the fetch thread to seek back to it (breakOnFirstError, Pausable EIP). */
    public boolean breakRequested() {
        return breakRequested;
    }

    /** Asks for a seek back to this item: nothing of its partitions starts until the fetch thread did it. */
    public void requestBreak() {
        for (WorkItem r : records()) {
            r.partitionState.markBreakPending();
        }
        breakRequested = true;
    }

    /** True once the broker acknowledged this record's dead letter. */
    public boolean deadLettered() {
        return deadLettered;
    }

    public void markDeadLettered() {
        deadLettered = true;
    }

    public boolean released() {
        return released;
    }

    public void markReleased() {
        released = true;
    }

    /** True once the broker acknowledged this record's letter to a retry topic. */
    public boolean retried() {
        return retried;
    }

    public void markRetried() {
        retried = true;
    }

    /** With transacted: the sends of this execution, held until it is finished; null otherwise. */
    public RecordOutputs outputs() {
        return outputs;
    }

    /** Transacted: gives this execution its buffer of sends (before it runs). */
    public RecordOutputs holdOutputs() {
        RecordOutputs o = new RecordOutputs();
        outputs = o;
        return o;
    }

    /**
     * Transacted: the record is dead-lettered inside the transaction: its letter becomes its only output (also when
     * it never ran, as a parked record), and it counts dead-lettered.
     */
    public void holdDeadLetter(ProducerRecord<byte[], byte[]> letter) {
        RecordOutputs o = outputs;
        if (o == null) {
            o = holdOutputs();
        }
        o.sealWithLetter(letter);
        markDeadLettered();
    }

    /** Fetch thread: when the task took it from a poll (epoch ms), 0 when unknown. */
    public long polledAtMs() {
        return polledAtMs;
    }

    public void polledAt(long epochMs) {
        this.polledAtMs = epochMs;
    }

    public boolean stallReported() {
        return stallReported;
    }

    public void markStallReported() {
        stallReported = true;
    }

    @Override
    public String toString() {
        return batch != null ? "batch of " + batch.size() + " from " + topicPartition() + "@" + offset
                : topicPartition() + "@" + offset;
    }
}
