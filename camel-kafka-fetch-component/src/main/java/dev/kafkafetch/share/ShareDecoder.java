package dev.kafkafetch.share;

import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns an acquired raw record into a {@link WorkItem} with the user's key and value deserializers, on the fetch
 * thread (deserializers need not be thread-safe). The share consumer itself reads bytes, so a record that cannot be
 * deserialized fails alone, at its exact partition and offset, and is never routed. The item's attempt is the
 * broker's delivery count. Share groups keep no offset window: the per-partition state only names the partition (for
 * the dispatcher's key lanes and the dead letters) and is never retired.
 */
final class ShareDecoder implements AutoCloseable {

    private final Deserializer<?> keyDeserializer;
    private final Deserializer<?> valueDeserializer;
    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private long seq;

    ShareDecoder(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
                 Map<String, Object> consumerConfig) {
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
        keyDeserializer.configure(consumerConfig, true);
        valueDeserializer.configure(consumerConfig, false);
    }

    WorkItem decode(ConsumerRecord<byte[], byte[]> record) {
        PartitionState state = partitions.computeIfAbsent(new TopicPartition(record.topic(), record.partition()),
                tp -> new PartitionState(tp, -1));
        Object key = null;
        Object value = null;
        Exception error = null;
        try {
            key = record.key() == null ? null
                    : keyDeserializer.deserialize(record.topic(), record.headers(), record.key());
            value = valueDeserializer.deserialize(record.topic(), record.headers(), record.value());
        } catch (Exception e) {
            error = e;
        }
        return new WorkItem(state, seq++, 0, deliveryCount(record), record.offset(), record.timestamp(),
                record.key(), record.value(), record.headers(), key, value, error);
    }

    /** The broker's delivery count of the record (1 on its first delivery). */
    static int deliveryCount(ConsumerRecord<?, ?> record) {
        return record.deliveryCount().map(Short::intValue).orElse(1);
    }

    @Override
    public void close() {
        keyDeserializer.close();
        valueDeserializer.close();
    }
}
