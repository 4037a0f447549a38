package dev.kafkafetch.error;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.processor.WorkItem;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes records the route could not finish to the dead-letter topic: key, value and headers as polled, plus
 * provenance headers ({@code kafka-fetch.dlt.*}, see {@link KafkaFetchConstants}).
 * <p>
 * Guarantee: {@code onAcked} runs only after the broker acknowledged the dead letter (acks=all, idempotent producer);
 * a failed send is retried with a backoff until it is acknowledged or the publisher is closed, so a record never counts
 * as finished without either being processed or being safely in the dead-letter topic. Thread-safe.
 */
public final class DeadLetterPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterPublisher.class);
    private static final long RETRY_BACKOFF_MS = 1000;

    private final String topic;
    private final String groupId;
    private final Producer<byte[], byte[]> producer;
    private final ScheduledExecutorService retries;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;

    public DeadLetterPublisher(String topic, String groupId, Properties clientProperties,
                               ScheduledExecutorService retries) {
        this.topic = topic;
        this.groupId = groupId;
        this.retries = retries;
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(props);
    }

    public String topic() {
        return topic;
    }

    /** Dead letters sent and not yet acknowledged. */
    public int pending() {
        return pending.get();
    }

    /** Sends the item's record to the dead-letter topic; runs {@code onAcked} once the broker has it. */
    public void publish(WorkItem item, int attempts, Runnable onAcked) {
        pending.incrementAndGet();
        send(toRecord(item, attempts), item, onAcked);
    }

    private void send(ProducerRecord<byte[], byte[]> record, WorkItem item, Runnable onAcked) {
        if (closed) {
            pending.decrementAndGet();
            LOG.warn("Dead letter for {} not sent: the consumer is stopping; the record will be re-delivered", item);
            return;
        }
        try {
            producer.send(record, (metadata, error) -> {
                if (error == null) {
                    LOG.info("Record {} ({}) dead-lettered to {}-{}@{}", item, item.failureReason(), metadata.topic(),
                            metadata.partition(), metadata.offset());
                    onAcked.run();
                    pending.decrementAndGet(); // after the completion is queued: see KafkaFetchRecords.awaitRunning
                } else {
                    retryLater(record, item, onAcked, error);
                }
            });
        } catch (RuntimeException e) {
            retryLater(record, item, onAcked, e);
        }
    }

    private void retryLater(ProducerRecord<byte[], byte[]> record, WorkItem item, Runnable onAcked, Exception error) {
        LOG.warn("Dead letter for {} not acknowledged ({}); retrying in {} ms", item, error.toString(),
                RETRY_BACKOFF_MS);
        try {
            retries.schedule(() -> send(record, item, onAcked), RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            pending.decrementAndGet();
            LOG.warn("Dead letter for {} abandoned: the consumer is stopping; the record will be re-delivered", item);
        }
    }

    private ProducerRecord<byte[], byte[]> toRecord(WorkItem item, int attempts) {
        RecordHeaders headers = new RecordHeaders();
        if (item.headers() != null) {
            for (Header h : item.headers()) {
                headers.add(h.key(), h.value());
            }
        }
        Exception failure = item.failure();
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_TOPIC, item.topic());
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_PARTITION, Integer.toString(item.partition()));
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_OFFSET, Long.toString(item.offset()));
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_TIMESTAMP, Long.toString(item.timestamp()));
        add(headers, KafkaFetchConstants.DLT_GROUP_ID, groupId);
        add(headers, KafkaFetchConstants.DLT_EXCEPTION_CLASS, failure == null ? "" : failure.getClass().getName());
        add(headers, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE,
                failure == null || failure.getMessage() == null ? "" : failure.getMessage());
        add(headers, KafkaFetchConstants.DLT_ATTEMPTS, Integer.toString(attempts));
        add(headers, KafkaFetchConstants.DLT_REASON, item.failureReason() == null ? "failed" : item.failureReason());
        return new ProducerRecord<>(topic, null, null, item.rawKey(), item.rawValue(), headers);
    }

    private static void add(RecordHeaders headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        closed = true;
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
