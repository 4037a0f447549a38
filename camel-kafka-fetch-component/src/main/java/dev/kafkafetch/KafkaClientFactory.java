package dev.kafkafetch;

import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Creates the Kafka clients of a kafka-fetch route, as camel-kafka's {@code KafkaClientFactory} does: every fetch
 * task's consumer (again after each reconnect) and the dead-letter producer. Set it on the component (it is autowired
 * from the registry when exactly one bean of this type exists) or on an endpoint, to wrap or instrument the clients.
 * <p>
 * The properties given are final: the consumer's read raw bytes and never auto-commit, and the fetch task alone uses
 * the consumer it gets (docs/design.md §4.1); a factory must return a new client per call and must not use it itself.
 */
public interface KafkaClientFactory {

    /** A new consumer of raw bytes for one fetch task. */
    Consumer<byte[], byte[]> getConsumer(Properties properties);

    /** A new producer of raw bytes for the dead-letter topic. */
    Producer<byte[], byte[]> getProducer(Properties properties);

    /**
     * A new share consumer of raw bytes for one {@code kafka-fetch-share} fetch task (explicit acknowledgement). By
     * default the plain {@link KafkaShareConsumer}.
     */
    default ShareConsumer<byte[], byte[]> getShareConsumer(Properties properties) {
        return new KafkaShareConsumer<>(properties);
    }

    /**
     * A new admin client for one {@code kafka-fetch-share} fetch task, which reads its share group's delivery limit
     * with it and closes it. By default {@link Admin#create}.
     */
    default Admin getAdmin(Properties properties) {
        return Admin.create(properties);
    }

    /** The plain Kafka clients. */
    KafkaClientFactory DEFAULT = new KafkaClientFactory() {
        @Override
        public Consumer<byte[], byte[]> getConsumer(Properties properties) {
            return new KafkaConsumer<>(properties);
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Properties properties) {
            return new KafkaProducer<>(properties);
        }
    };
}
