package dev.kafkafetch.share;

import java.util.List;
import java.util.Properties;

import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.security.SecretMasker;

/**
 * Everything a share fetch task needs to know, validated and fixed when the route starts. The share consumer
 * {@code properties} always read raw bytes, acknowledge explicitly and acquire at most {@code maxPollRecords} records
 * per poll.
 *
 * @param properties          the KafkaShareConsumer's settings
 * @param producerProperties  connection and security settings for the dead-letter producer and the admin client
 * @param consumersPerWindow  share consumers (fetch tasks) per consumersCount that share one window of maxConcurrency
 * @param maxDeliveryAttempts deliveries before a failure is final (further bounded by the group's delivery limit)
 * @param deadLetterTopic     null = no dead-letter topic: a record failed for good is rejected
 * @param stallTimeoutMs      a record in the route longer than this is given up on and fails its delivery; 0 = off
 * @param masker              masks the configured secrets in anything shown (errors, health details)
 */
public record ShareSettings(
        String groupId,
        Properties properties,
        Properties producerProperties,
        Class<?> keyDeserializer,
        Class<?> valueDeserializer,
        List<String> topics,
        long pollTimeoutMs,
        int maxPollRecords,
        int maxInFlightRecords,
        int maxConcurrency,
        int consumersPerWindow,
        Ordering ordering,
        int maxDeliveryAttempts,
        String deadLetterTopic,
        long stallTimeoutMs,
        long commitTimeoutMs,
        long shutdownTimeoutMs,
        int createConsumerBackoffMaxAttempts,
        long createConsumerBackoffIntervalMs,
        int subscribeConsumerBackoffMaxAttempts,
        long subscribeConsumerBackoffIntervalMs,
        SecretMasker masker) {

    /** The settings of task {@code index} of {@code count}: the client id gets a -index suffix. */
    public ShareSettings forTask(int index, int count) {
        String clientId = properties.getProperty("client.id");
        if (count == 1 || clientId == null) {
            return this;
        }
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty("client.id", clientId + "-" + index);
        return new ShareSettings(groupId, p, producerProperties, keyDeserializer, valueDeserializer, topics,
                pollTimeoutMs, maxPollRecords, maxInFlightRecords, maxConcurrency, consumersPerWindow, ordering,
                maxDeliveryAttempts,
                deadLetterTopic, stallTimeoutMs, commitTimeoutMs, shutdownTimeoutMs, createConsumerBackoffMaxAttempts,
                createConsumerBackoffIntervalMs, subscribeConsumerBackoffMaxAttempts,
                subscribeConsumerBackoffIntervalMs, masker);
    }

    /** What the tasks subscribe to, for logs and metrics. */
    public String subscription() {
        return String.join(",", topics);
    }
}
