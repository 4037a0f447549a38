package dev.kafkafetch.commit;

/**
 * Commits, by hand, the offset after one record (header {@code CamelKafkaManualCommit} with
 * {@code allowManualCommit=true}). May be called from any thread; the commit itself is carried out by the record's
 * fetch thread. It never commits past a record of the same partition that is still unfinished.
 */
public interface KafkaManualCommit {

    /** Commits; the synchronous form waits for the broker (bounded by commitTimeoutMs) and throws if it failed. */
    void commit();

    String getTopic();

    int getPartition();

    long getRecordOffset();
}
