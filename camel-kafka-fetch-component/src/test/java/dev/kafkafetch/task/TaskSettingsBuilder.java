package dev.kafkafetch.task;

import java.util.List;
import java.util.Properties;

import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.tx.TxSettings;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@link TaskSettings} for unit tests, by name: one group {@code g}, one topic {@code t}, String deserializers, no
 * secrets, and small timeouts; a test sets only what it is about. The defaults are those the task tests used before
 * this builder (poll 50 ms, 100 records a poll, window 1000, 4 at once by partition, interval commits every 100 ms
 * with an offset map, commit 1 s, shutdown 2 s, revoke 1 s, create/subscribe backoff 10 ms).
 */
public final class TaskSettingsBuilder {

    private String groupId = "g";
    private Properties properties = new Properties();
    private Properties producerProperties = new Properties();
    private List<String> topics = List.of("t");
    private long pollTimeoutMs = 50;
    private int maxPollRecords = 100;
    private int maxInFlightRecords = 1000;
    private int maxConcurrency = 4;
    private Ordering ordering = Ordering.PARTITION;
    private boolean autoCommitEnable = true;
    private long autoCommitIntervalMs = 100;
    private long finishedCommitIntervalMs;
    private long commitTimeoutMs = 1000;
    private long shutdownTimeoutMs = 2000;
    private long revokeTimeoutMs = 1000;
    private SeekPolicy seekTo;
    private long stallTimeoutMs;
    private String deadLetterTopic;
    private boolean breakOnFirstError;
    private int breakOnFirstErrorMaxAttempts;
    private boolean allowManualCommit;
    private boolean batching;
    private long batchingIntervalMs;
    private boolean offsetMap = true;
    private RetryPlan retries;
    private TxSettings transactions;

    public static TaskSettingsBuilder taskSettings() {
        return new TaskSettingsBuilder();
    }

    public TaskSettingsBuilder groupId(String groupId) {
        this.groupId = groupId;
        return this;
    }

    public TaskSettingsBuilder properties(Properties properties) {
        this.properties = properties;
        return this;
    }

    public TaskSettingsBuilder producerProperties(Properties producerProperties) {
        this.producerProperties = producerProperties;
        return this;
    }

    public TaskSettingsBuilder topics(String... topics) {
        this.topics = List.of(topics);
        return this;
    }

    public TaskSettingsBuilder pollTimeoutMs(long pollTimeoutMs) {
        this.pollTimeoutMs = pollTimeoutMs;
        return this;
    }

    public TaskSettingsBuilder maxPollRecords(int maxPollRecords) {
        this.maxPollRecords = maxPollRecords;
        return this;
    }

    public TaskSettingsBuilder maxInFlightRecords(int maxInFlightRecords) {
        this.maxInFlightRecords = maxInFlightRecords;
        return this;
    }

    public TaskSettingsBuilder maxConcurrency(int maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
        return this;
    }

    public TaskSettingsBuilder ordering(Ordering ordering) {
        this.ordering = ordering;
        return this;
    }

    public TaskSettingsBuilder autoCommitEnable(boolean autoCommitEnable) {
        this.autoCommitEnable = autoCommitEnable;
        return this;
    }

    public TaskSettingsBuilder autoCommitIntervalMs(long autoCommitIntervalMs) {
        this.autoCommitIntervalMs = autoCommitIntervalMs;
        return this;
    }

    public TaskSettingsBuilder finishedCommitIntervalMs(long finishedCommitIntervalMs) {
        this.finishedCommitIntervalMs = finishedCommitIntervalMs;
        return this;
    }

    public TaskSettingsBuilder commitTimeoutMs(long commitTimeoutMs) {
        this.commitTimeoutMs = commitTimeoutMs;
        return this;
    }

    public TaskSettingsBuilder shutdownTimeoutMs(long shutdownTimeoutMs) {
        this.shutdownTimeoutMs = shutdownTimeoutMs;
        return this;
    }

    public TaskSettingsBuilder revokeTimeoutMs(long revokeTimeoutMs) {
        this.revokeTimeoutMs = revokeTimeoutMs;
        return this;
    }

    public TaskSettingsBuilder seekTo(SeekPolicy seekTo) {
        this.seekTo = seekTo;
        return this;
    }

    public TaskSettingsBuilder stallTimeoutMs(long stallTimeoutMs) {
        this.stallTimeoutMs = stallTimeoutMs;
        return this;
    }

    public TaskSettingsBuilder deadLetterTopic(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
        return this;
    }

    public TaskSettingsBuilder breakOnFirstError(boolean breakOnFirstError) {
        this.breakOnFirstError = breakOnFirstError;
        return this;
    }

    public TaskSettingsBuilder breakOnFirstErrorMaxAttempts(int breakOnFirstErrorMaxAttempts) {
        this.breakOnFirstErrorMaxAttempts = breakOnFirstErrorMaxAttempts;
        return this;
    }

    public TaskSettingsBuilder allowManualCommit(boolean allowManualCommit) {
        this.allowManualCommit = allowManualCommit;
        return this;
    }

    public TaskSettingsBuilder batching(boolean batching) {
        this.batching = batching;
        return this;
    }

    public TaskSettingsBuilder batchingIntervalMs(long batchingIntervalMs) {
        this.batchingIntervalMs = batchingIntervalMs;
        return this;
    }

    public TaskSettingsBuilder offsetMap(boolean offsetMap) {
        this.offsetMap = offsetMap;
        return this;
    }

    public TaskSettingsBuilder retries(RetryPlan retries) {
        this.retries = retries;
        return this;
    }

    public TaskSettingsBuilder transactions(TxSettings transactions) {
        this.transactions = transactions;
        return this;
    }

    public TaskSettings build() {
        return new TaskSettings(groupId, properties, producerProperties, StringDeserializer.class,
                StringDeserializer.class, topics, null, pollTimeoutMs, maxPollRecords, maxInFlightRecords,
                maxConcurrency, ordering, autoCommitEnable, autoCommitIntervalMs, finishedCommitIntervalMs,
                commitTimeoutMs, shutdownTimeoutMs, revokeTimeoutMs, seekTo, stallTimeoutMs, deadLetterTopic,
                breakOnFirstError, breakOnFirstErrorMaxAttempts, allowManualCommit, batching, batchingIntervalMs,
                0, 10, 0, 10, new SecretMasker(List.of()), offsetMap, retries, transactions);
    }
}
