package dev.kafkafetch.error;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.dispatch.WorkItem;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Builds the letters of failed records: a dead letter, or a retry letter for the next retry topic. Each carries the
 * record's key, value and headers as polled, its provenance (the topic, partition and offset it was first consumed
 * from, also through retry topics) and the history of its failures, one header per failed delivery. Thread-safe.
 */
public final class Letters {

    private final String groupId;
    private final RetryPlan retries;

    /** @param retries null without retry topics */
    public Letters(String groupId, RetryPlan retries) {
        this.groupId = groupId;
        this.retries = retries;
    }

    /** The dead letter of {@code record}, failed {@code attempts} times in all. */
    public ProducerRecord<byte[], byte[]> deadLetter(WorkItem record, String topic, String reason, Exception failure,
                                                     int attempts) {
        RecordHeaders headers = copy(record);
        Origin origin = originOf(record, retries);
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_TOPIC, origin.topic());
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_PARTITION, Integer.toString(origin.partition()));
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_OFFSET, Long.toString(origin.offset()));
        add(headers, KafkaFetchConstants.DLT_ORIGINAL_TIMESTAMP, Long.toString(origin.timestamp()));
        add(headers, KafkaFetchConstants.DLT_GROUP_ID, groupId);
        add(headers, KafkaFetchConstants.DLT_EXCEPTION_CLASS, failure == null ? "" : failure.getClass().getName());
        add(headers, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE, messageOf(failure));
        add(headers, KafkaFetchConstants.DLT_ATTEMPTS, Integer.toString(attempts));
        add(headers, KafkaFetchConstants.DLT_REASON, reason == null ? "failed" : reason);
        if (retries != null) {
            add(headers, KafkaFetchConstants.RETRY_HISTORY, history(record, attempts, failure));
        }
        return new ProducerRecord<>(topic, null, null, record.rawKey(), record.rawValue(), headers);
    }

    /** The letter of {@code record}, failed at delivery {@code attempt}, to its next retry topic, due at {@code dueMs}. */
    public ProducerRecord<byte[], byte[]> retryLetter(WorkItem record, String topic, Exception failure, int attempt,
                                                      long dueMs) {
        RecordHeaders headers = copy(record);
        Origin origin = originOf(record, retries);
        add(headers, KafkaFetchConstants.RETRY_ORIGINAL_TOPIC, origin.topic());
        add(headers, KafkaFetchConstants.RETRY_ORIGINAL_PARTITION, Integer.toString(origin.partition()));
        add(headers, KafkaFetchConstants.RETRY_ORIGINAL_OFFSET, Long.toString(origin.offset()));
        add(headers, KafkaFetchConstants.RETRY_ORIGINAL_TIMESTAMP, Long.toString(origin.timestamp()));
        add(headers, KafkaFetchConstants.RETRY_ATTEMPT, Integer.toString(attempt + 1));
        add(headers, KafkaFetchConstants.RETRY_DUE, Long.toString(dueMs));
        add(headers, KafkaFetchConstants.RETRY_GROUP_ID, groupId);
        add(headers, KafkaFetchConstants.RETRY_EXCEPTION_CLASS, failure == null ? "" : failure.getClass().getName());
        add(headers, KafkaFetchConstants.RETRY_EXCEPTION_MESSAGE, messageOf(failure));
        add(headers, KafkaFetchConstants.RETRY_HISTORY, history(record, attempt, failure));
        return new ProducerRecord<>(topic, null, null, record.rawKey(), record.rawValue(), headers);
    }

    /** When a retry letter may be routed (epoch ms), or 0 when the headers name no due time. */
    public static long dueOf(Headers headers) {
        return longOf(headers, KafkaFetchConstants.RETRY_DUE, 0);
    }

    /** The delivery attempt a retry letter is for, or {@code otherwise}. */
    public static int attemptOf(Headers headers, int otherwise) {
        return (int) longOf(headers, KafkaFetchConstants.RETRY_ATTEMPT, otherwise);
    }

    /** Where a record was first consumed from: its own place, or, in a retry topic, what its retry letter says. */
    public static Origin originOf(WorkItem record, RetryPlan retries) {
        Headers h = record.headers();
        if (retries != null && retries.isRetryTopic(record.topic()) && h != null
            && h.lastHeader(KafkaFetchConstants.RETRY_ORIGINAL_TOPIC) != null) {
            return new Origin(textOf(h, KafkaFetchConstants.RETRY_ORIGINAL_TOPIC),
                    (int) longOf(h, KafkaFetchConstants.RETRY_ORIGINAL_PARTITION, -1),
                    longOf(h, KafkaFetchConstants.RETRY_ORIGINAL_OFFSET, -1),
                    longOf(h, KafkaFetchConstants.RETRY_ORIGINAL_TIMESTAMP, -1));
        }
        return new Origin(record.topic(), record.partition(), record.offset(), record.timestamp());
    }

    /** The topic, partition, offset and timestamp a record was first consumed with. */
    public record Origin(String topic, int partition, long offset, long timestamp) {
    }

    /** The record's headers, without the single-valued headers of an earlier retry letter (history entries stay). */
    private static RecordHeaders copy(WorkItem record) {
        RecordHeaders headers = new RecordHeaders();
        if (record.headers() != null) {
            for (Header h : record.headers()) {
                if (!h.key().startsWith("kafka-fetch.retry.") || h.key().equals(KafkaFetchConstants.RETRY_HISTORY)) {
                    headers.add(h.key(), h.value());
                }
            }
        }
        return headers;
    }

    private static String history(WorkItem record, int attempt, Exception failure) {
        return "attempt " + attempt + " at " + Instant.now() + " on " + record.topicPartition() + "@"
               + record.offset() + ": " + (failure == null ? "failed" : failure.toString());
    }

    private static String messageOf(Exception failure) {
        return failure == null || failure.getMessage() == null ? "" : failure.getMessage();
    }

    private static String textOf(Headers headers, String key) {
        Header h = headers.lastHeader(key);
        return h == null || h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static long longOf(Headers headers, String key, long otherwise) {
        if (headers == null) {
            return otherwise;
        }
        try {
            String text = textOf(headers, key);
            return text.isEmpty() ? otherwise : Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static void add(RecordHeaders headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
