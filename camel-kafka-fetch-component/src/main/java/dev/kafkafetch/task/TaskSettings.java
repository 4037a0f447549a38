package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.error.FailureRules;
import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.tx.TxSettings;

/**
 * Everything a fetch task needs to know, validated and fixed when the route starts. The Kafka consumer
 * {@code properties} always read raw bytes and never auto-commit.
 *
 * @param producerProperties connection and security settings for the dead-letter producer
 * @param topics       topic names to subscribe to, or null when {@code pattern} is set
 * @param pattern      topic pattern to subscribe to, or null
 * @param finishedCommitIntervalMs the least time between two commits that follow finished records; 0 = commits
 *                     only every autoCommitIntervalMs
 * @param stallTimeoutMs 0 = stall detection off
 * @param deadLetterTopic null = no dead-letter topic
 * @param batchingIntervalMs 0 = one batch per poll
 * @param masker       masks the configured secrets in anything shown (errors, health details)
 * @param offsetMap    whether commits name the records finished above them (with autoCommitEnable)
 * @param retries      the retry topics, or null without retryDelays
 * @param transactions the transactional producer's settings, or null unless transacted
 */
public record TaskSettings(
        String groupId,
        Properties properties,
        Properties producerProperties,
        Class<?> keyDeserializer,
        Class<?> valueDeserializer,
        List<String> topics,
        Pattern pattern,
        long pollTimeoutMs,
        int maxPollRecords,
        int maxInFlightRecords,
        int maxConcurrency,
        Ordering ordering,
        boolean autoCommitEnable,
        long autoCommitIntervalMs,
        long finishedCommitIntervalMs,
        long commitTimeoutMs,
        long shutdownTimeoutMs,
        long revokeTimeoutMs,
        SeekPolicy seekTo,
        long stallTimeoutMs,
        String deadLetterTopic,
        boolean breakOnFirstError,
        int breakOnFirstErrorMaxAttempts,
        boolean allowManualCommit,
        boolean batching,
        long batchingIntervalMs,
        int createConsumerBackoffMaxAttempts,
        long createConsumerBackoffIntervalMs,
        int subscribeConsumerBackoffMaxAttempts,
        long subscribeConsumerBackoffIntervalMs,
        SecretMasker masker,
        boolean offsetMap,
        RetryPlan retries,
        TxSettings transactions) {

    /** The settings of task {@code index} of {@code count}: client and instance ids get a -index suffix. */
    public TaskSettings forTask(int index, int count) {
        if (count == 1) {
            return this;
        }
        Properties p = new Properties();
        p.putAll(properties);
        for (String key : new String[] { "client.id", "group.instance.id" }) {
            String value = p.getProperty(key);
            if (value != null) {
                p.setProperty(key, value + "-" + index);
            }
        }
        return new TaskSettings(groupId, p, producerProperties, keyDeserializer, valueDeserializer, topics, pattern,
                pollTimeoutMs, maxPollRecords, maxInFlightRecords, maxConcurrency, ordering, autoCommitEnable,
                autoCommitIntervalMs, finishedCommitIntervalMs, commitTimeoutMs, shutdownTimeoutMs, revokeTimeoutMs,
                seekTo, stallTimeoutMs,
                deadLetterTopic, breakOnFirstError, breakOnFirstErrorMaxAttempts, allowManualCommit, batching,
                batchingIntervalMs, createConsumerBackoffMaxAttempts, createConsumerBackoffIntervalMs,
                subscribeConsumerBackoffMaxAttempts, subscribeConsumerBackoffIntervalMs, masker, offsetMap, retries,
                transactions);
    }

    /** True when the route's sends to kafka-fetch endpoints join the fetch task's transactions. */
    public boolean transacted() {
        return transactions != null;
    }

    /** The topics subscribed to: the endpoint's, and their retry topics. */
    public List<String> subscribedTopics() {
        if (retries == null) {
            return topics;
        }
        List<String> all = new ArrayList<>(topics);
        all.addAll(retries.retryTopics());
        return all;
    }

    /** Where records still failed after Camel's error handler go. */
    public FailureRules failureRules() {
        return new FailureRules(groupId, breakOnFirstError, breakOnFirstErrorMaxAttempts, deadLetterTopic, retries,
                transacted());
    }

    /** What the task subscribes to, for logs and metrics. */
    public String subscription() {
        return pattern != null ? pattern.pattern() : String.join(",", topics);
    }
}
