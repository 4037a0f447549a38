package dev.kafkafetch.commit;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The record a manual commit is about, and the way to ask its fetch task to commit it: what a
 * {@link KafkaManualCommitFactory} receives. Thread-safe; the commit itself is always carried out by the record's
 * fetch thread.
 */
public final class ManualCommitTarget {

    private final String topic;
    private final int partition;
    private final long offset;
    private final long commitTimeoutMs;
    private final Supplier<CompletableFuture<Long>> commit;

    public ManualCommitTarget(String topic, int partition, long offset, long commitTimeoutMs,
                              Supplier<CompletableFuture<Long>> commit) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.commitTimeoutMs = commitTimeoutMs;
        this.commit = commit;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** How long the fetch task waits for the broker to answer a commit (the endpoint's commitTimeoutMs). */
    public long commitTimeoutMs() {
        return commitTimeoutMs;
    }

    /**
     * Marks the record finished and asks its fetch thread to commit the offset after it, never past an earlier
     * unfinished record of the partition: while there is one, the commit goes up to it and the rest is committed as
     * soon as the earlier records finish. The future completes with the partition's committed offset once the broker
     * answered (lower than this record's offset + 1 while an earlier record is unfinished), or exceptionally when the
     * commit failed or the partition is no longer assigned to this consumer.
     */
    public CompletableFuture<Long> commit() {
        return commit.get();
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
