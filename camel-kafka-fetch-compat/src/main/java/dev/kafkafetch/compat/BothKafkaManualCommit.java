package dev.kafkafetch.compat;

import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.commit.ManualCommitTarget;

/**
 * The value of header {@code CamelKafkaManualCommit} with camel-kafka-fetch-compat: both kafka-fetch's
 * {@link KafkaManualCommit} and camel-kafka's, so a route reading it as either type commits. {@link #commit()} does
 * what the wrapped commit does (by default: kafka-fetch's, never past an unfinished record).
 */
public final class BothKafkaManualCommit
        implements KafkaManualCommit, org.apache.camel.component.kafka.consumer.KafkaManualCommit {

    private final String topic;
    private final int partition;
    private final long recordOffset;
    private final Runnable commit;

    BothKafkaManualCommit(ManualCommitTarget target, Runnable commit) {
        this(target.topic(), target.partition(), target.offset(), commit);
    }

    BothKafkaManualCommit(String topic, int partition, long recordOffset, Runnable commit) {
        this.topic = topic;
        this.partition = partition;
        this.recordOffset = recordOffset;
        this.commit = commit;
    }

    @Override
    public void commit() {
        commit.run();
    }

    @Override
    public String getTopic() {
        return topic;
    }

    @Override
    public int getPartition() {
        return partition;
    }

    @Override
    public long getRecordOffset() {
        return recordOffset;
    }

    @Override
    public String toString() {
        return "KafkaManualCommit[" + topic + "-" + partition + "@" + recordOffset + "]";
    }
}
