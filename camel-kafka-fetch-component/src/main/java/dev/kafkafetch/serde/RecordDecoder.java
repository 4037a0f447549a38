package dev.kafkafetch.serde;

import java.util.Map;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.Letters;
import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns a polled raw record into a {@link WorkItem} with the user's key and value deserializers, after entering it in
 * its partition's window (so no polled record can escape the window, whatever happens next). The consumer itself
 * reads bytes, so a record that cannot be deserialized fails alone, at its exact partition and offset, instead of
 * failing the poll of every partition. Confined to the fetch thread (deserializers need not be thread-safe).
 */
public final class RecordDecoder implements AutoCloseable {

    private final Deserializer<?> keyDeserializer;
    private final Deserializer<?> valueDeserializer;
    private final RetryPlan retries;

    public RecordDecoder(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
                         Map<String, Object> consumerConfig) {
        this(keyDeserializer, valueDeserializer, consumerConfig, null);
    }

    /** @param retries null without retry topics; a record of a retry topic carries its delivery attempt */
    public RecordDecoder(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
                         Map<String, Object> consumerConfig, RetryPlan retries) {
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
        this.retries = retries;
        keyDeserializer.configure(consumerConfig, true);
        valueDeserializer.configure(consumerConfig, false);
    }

    public WorkItem decode(PartitionState state, ConsumerRecord<byte[], byte[]> record) {
        int generation = state.generation();
        long seq = state.append(record.offset());
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
        int attempt = retries != null && retries.isRetryTopic(record.topic())
                ? Letters.attemptOf(record.headers(), 1) : state.attemptFor(record.offset());
        return new WorkItem(state, seq, generation, attempt, record.offset(),
                record.timestamp(), record.key(), record.value(), record.headers(), key, value, error);
    }

    @Override
    public void close() {
        keyDeserializer.close();
        valueDeserializer.close();
    }
}
