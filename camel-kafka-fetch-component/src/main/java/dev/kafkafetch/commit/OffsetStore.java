package dev.kafkafetch.commit;

import java.util.Map;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a fetch task also keeps positions outside Kafka (camel-kafka's {@code offsetRepository}, Camel's resume
 * strategies): it is told every offset the task committed, and asked where a newly assigned partition starts.
 * <p>
 * Guarantee: {@link #committed} only ever receives offsets the {@link CommitManager} committed, so they never run
 * ahead of the first unfinished record (docs/design.md §4.2); a store can therefore be trusted as much as Kafka's
 * committed offsets. Both methods run on the fetch thread; a store shared by several tasks must be thread-safe.
 */
public interface OffsetStore {

    /** No store: partitions start at the group's committed offset. */
    OffsetStore NONE = new OffsetStore() {
        @Override
        public long startOffset(TopicPartition partition) {
            return -1;
        }

        @Override
        public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
            // nothing kept
        }
    };

    /** The offset a newly assigned partition starts from, or -1 to start from the group's committed offset. */
    long startOffset(TopicPartition partition);

    /** The offsets just committed (each one the next offset to consume of its partition). */
    void committed(Map<TopicPartition, OffsetAndMetadata> offsets);
}
