package dev.kafkafetch.tx;

import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What a transacted fetch task needs for its producer, fixed when the route starts.
 *
 * @param transactionalIdPrefix the route member's prefix; task {@code i} uses {@code prefix + "-" + i}
 * @param commonProperties      the connection and security settings every client of the route gets
 * @param tuning                the producer settings from camel-kafka's producer options, checked when the route
 *                              started: sizes, compression, retries and the request, delivery and block timeouts (the
 *                              last bounding how long a transaction's commit or abort may block the fetch thread)
 * @param transactionTimeoutMs  Kafka's {@code transaction.timeout.ms}
 */
public record TxSettings(String transactionalIdPrefix, Properties commonProperties, Map<String, String> tuning,
        long transactionTimeoutMs) {

    public TxSettings {
        tuning = Map.copyOf(tuning);
    }

    /** The transactional id of fetch task {@code index}: stable across restarts of the member, unique per task. */
    public String transactionalId(int index) {
        return transactionalIdPrefix + "-" + index;
    }

    /**
     * The properties of task {@code index}'s transactional producer: the common ones, the tuning, then what the
     * transaction needs (bytes in, idempotent, acks=all), which nothing overrides.
     */
    public Properties producerProperties(int index) {
        Properties p = new Properties();
        p.putAll(commonProperties);
        p.putAll(tuning);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(index));
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Long.toString(transactionTimeoutMs));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId(index));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }
}
