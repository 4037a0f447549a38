package dev.kafkafetch.deadletter;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * One record of a dead-letter topic as an operator sees it: where it is (its dead-letter topic, partition, offset and
 * time) and the provenance kafka-fetch wrote into its headers (original topic, partition, offset and time, group,
 * reason, exception, attempts); the key as text and the value's size, never the value. A header it lacks reads as
 * null (or -1 for numbers), so letters written by others can be listed too.
 */
public record DeadLetter(
        String topic,
        int partition,
        long offset,
        long timestamp,
        String key,
        int valueSize,
        String originalTopic,
        int originalPartition,
        long originalOffset,
        long originalTimestamp,
        String groupId,
        String reason,
        String exceptionClass,
        String exceptionMessage,
        int attempts,
        String replayedFrom) {

    private static final int MAX_KEY_CHARS = 200;

    /** The letter of that record; {@code mask} masks secrets in the texts shown (the exception message). */
    public static DeadLetter of(ConsumerRecord<byte[], byte[]> r, UnaryOperator<String> mask) {
        Headers h = r.headers();
        String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
        if (key != null && key.length() > MAX_KEY_CHARS) {
            key = key.substring(0, MAX_KEY_CHARS) + "...";
        }
        return new DeadLetter(r.topic(), r.partition(), r.offset(), r.timestamp(), key,
                r.value() == null ? -1 : r.value().length, text(h, KafkaFetchConstants.DLT_ORIGINAL_TOPIC),
                (int) number(h, KafkaFetchConstants.DLT_ORIGINAL_PARTITION),
                number(h, KafkaFetchConstants.DLT_ORIGINAL_OFFSET),
                number(h, KafkaFetchConstants.DLT_ORIGINAL_TIMESTAMP),
                text(h, KafkaFetchConstants.DLT_GROUP_ID), text(h, KafkaFetchConstants.DLT_REASON),
                text(h, KafkaFetchConstants.DLT_EXCEPTION_CLASS),
                mask.apply(text(h, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE)),
                (int) number(h, KafkaFetchConstants.DLT_ATTEMPTS), text(h, DeadLetterTopic.REPLAY_LETTER));
    }

    /** The letter's own coordinates, {@code topic-partition@offset}: what the replay log is keyed by. */
    public String id() {
        return topic + "-" + partition + "@" + offset;
    }

    /** The fields by name, for JSON (the dev console, a page). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("letter", id());
        m.put("topic", topic);
        m.put("partition", partition);
        m.put("offset", offset);
        m.put("timestamp", timestamp);
        m.put("key", key);
        m.put("valueSize", valueSize);
        m.put("originalTopic", originalTopic);
        m.put("originalPartition", originalPartition);
        m.put("originalOffset", originalOffset);
        m.put("originalTimestamp", originalTimestamp);
        m.put("groupId", groupId);
        m.put("reason", reason);
        m.put("exceptionClass", exceptionClass);
        m.put("exceptionMessage", exceptionMessage);
        m.put("attempts", attempts);
        if (replayedFrom != null) {
            m.put("replayedFrom", replayedFrom);
        }
        return m;
    }

    @Override
    public String toString() {
        return id() + " from " + originalTopic + "-" + originalPartition + "@" + originalOffset + " reason " + reason
               + " attempts " + attempts + " key " + key + " (" + exceptionClass + ": " + exceptionMessage + ")";
    }

    static String text(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static long number(Headers headers, String name) {
        String t = text(headers, name);
        try {
            return t == null || t.isBlank() ? -1 : Long.parseLong(t.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
