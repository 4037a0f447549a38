package dev.kafkafetch;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.task.TaskSettings;
import dev.kafkafetch.tx.TxSettings;
import org.apache.camel.util.TimeUtils;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.kafkafetch.OptionChecks.blankToNull;
import static dev.kafkafetch.OptionChecks.putIfSet;

/**
 * Turns an endpoint's options into {@link TaskSettings}, refusing bad input with an {@link IllegalArgumentException}
 * whose message names the option: missing brokers or groupId, non-positive counts and timeouts, unknown enum values,
 * deserializer or assignor classes that cannot be loaded, and Kafka settings that would break the guarantees.
 */
final class EndpointSettings extends ConsumerSettingsFactory {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointSettings.class);
    private static final Set<String> OFFSET_RESETS = Set.of("latest", "earliest", "none");
    private static final Set<String> GROUP_PROTOCOLS = Set.of("classic", "consumer");
    private static final Set<String> ISOLATION_LEVELS = Set.of("read_uncommitted", "read_committed");

    private final KafkaFetchEndpoint e;
    private final KafkaFetchConfiguration o;

    EndpointSettings(KafkaFetchEndpoint endpoint) {
        super("kafka-fetch", endpoint.getConfiguration(), endpoint.getCamelContext());
        this.e = endpoint;
        this.o = endpoint.getConfiguration();
    }

    TaskSettings build() {
        ClientOptions client = checkClientOptions();
        if (e.getComponent().isSubscribeConsumerTopicMustExists()) {
            throw new IllegalArgumentException("kafka-fetch component option subscribeConsumerTopicMustExists=true is"
                                               + " not supported: create the topics beforehand (a consumer never"
                                               + " creates them unless"
                                               + " additionalProperties.allow.auto.create.topics=true)");
        }
        int maxPollRecords = (int) checks.positive("maxPollRecords", o.getMaxPollRecords());
        long autoCommitIntervalMs = checks.positive("autoCommitIntervalMs", o.getAutoCommitIntervalMs());
        checks.notNegative("finishedCommitIntervalMs", o.getFinishedCommitIntervalMs());
        long finishedCommitIntervalMs = o.getFinishedCommitIntervalMs() == null ? 0 : o.getFinishedCommitIntervalMs();
        checks.positive("sessionTimeoutMs", o.getSessionTimeoutMs());
        checks.positive("heartbeatIntervalMs", o.getHeartbeatIntervalMs());
        checks.positive("maxInFlightRecords", o.getMaxInFlightRecords());
        checks.notNegative("revokeTimeoutMs", o.getRevokeTimeoutMs());
        checks.notNegative("stallTimeoutMs", o.getStallTimeoutMs());
        if (o.getBatchingIntervalMs() != null) {
            checks.positive("batchingIntervalMs", o.getBatchingIntervalMs());
        }
        checks.notNegative("breakOnFirstErrorMaxAttempts", o.getBreakOnFirstErrorMaxAttempts());
        if (o.isAllowManualCommit() && o.getKafkaManualCommitFactory() == null) {
            throw checks.invalid("kafkaManualCommitFactory", "is required with"
                                                             + " allowManualCommit=true");
        }
        if (o.getMaxInFlightRecords() < maxPollRecords) {
            throw checks.invalid("maxInFlightRecords", "(" + o.getMaxInFlightRecords()
                                                       + ") must be at least maxPollRecords (" + maxPollRecords
                                                       + "): one poll must fit in the window");
        }
        String unreachable = concurrencyBeyondWindow(o.getMaxConcurrency(), o.getMaxInFlightRecords());
        if (unreachable != null) {
            LOG.warn(unreachable);
        }
        if (o.getOrdering() == null) {
            throw checks.invalid("ordering", "must be PARTITION, KEY or UNORDERED");
        }
        String offsetReset = checks.oneOf("autoOffsetReset", o.getAutoOffsetReset(), OFFSET_RESETS);
        String groupProtocol = checks.oneOf("groupProtocol", o.getGroupProtocol(), GROUP_PROTOCOLS);
        String isolation = checks.oneOf("isolationLevel", o.getIsolationLevel(), ISOLATION_LEVELS);
        Class<?> keyDeserializer = deserializer("keyDeserializer", o.getKeyDeserializer());
        Class<?> valueDeserializer = deserializer("valueDeserializer", o.getValueDeserializer());
        if (o.getInterceptorClasses() != null) {
            for (String name : o.getInterceptorClasses().split(",")) {
                if (!name.isBlank()) {
                    loadable("interceptorClasses", name.trim());
                }
            }
        }

        List<String> topics = null;
        Pattern pattern = null;
        if (o.isTopicIsPattern()) {
            try {
                pattern = Pattern.compile(e.getTopic());
            } catch (PatternSyntaxException ex) {
                throw new IllegalArgumentException("kafka-fetch topic '" + e.getTopic()
                                                   + "' is not a valid regular expression (topicIsPattern=true): "
                                                   + ex.getDescription(),
                        ex);
            }
        } else {
            topics = topicNames(e.getTopic());
        }
        String dlt = o.getDeadLetterTopic();
        RetryPlan retries = retryPlan(topics, dlt);
        if (dlt != null
            && (topics != null && topics.contains(dlt) || pattern != null && pattern.matcher(dlt).matches())) {
            throw checks.invalid("deadLetterTopic", "(" + dlt
                                                    + ") must not be a topic this endpoint consumes");
        }

        // shared by the consumers and the dead-letter producer
        Properties common = commonProperties(client.brokers());

        Properties props = consumerProperties(client, common);
        if (o.getGroupInstanceId() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, o.getGroupInstanceId());
        }
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
        if ("classic".equals(groupProtocol)) {
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(o.getSessionTimeoutMs()));
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString(o.getHeartbeatIntervalMs()));
            if (o.getPartitionAssignor() != null) {
                loadable("partitionAssignor", o.getPartitionAssignor());
                props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, o.getPartitionAssignor());
            }
        } else if (o.getGroupRemoteAssignor() != null) {
            props.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, o.getGroupRemoteAssignor());
        }
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        putIfSet(props, ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, blankToNull(o.getInterceptorClasses()));

        Map<String, Object> extra = o.getAdditionalProperties();
        if (extra != null) {
            for (Map.Entry<String, Object> entry : extra.entrySet()) {
                String key = entry.getKey();
                Object value = entry.getValue();
                if (value == null) {
                    continue;
                }
                if (ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG.equals(key)
                    && "true".equalsIgnoreCase(String.valueOf(value))) {
                    throw new IllegalArgumentException("kafka-fetch option additionalProperties.enable.auto.commit=true"
                                                       + " is refused: it commits records before they are processed;"
                                                       + " use autoCommitEnable");
                }
                if (ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG.equals(key)
                    || ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG.equals(key)) {
                    throw new IllegalArgumentException("kafka-fetch option additionalProperties." + key
                                                       + " is refused: use keyDeserializer / valueDeserializer");
                }
                if (ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG.equals(key)) {
                    continue;
                }
                putAdditional(props, common, key, value);
            }
        }

        TxSettings transactions = transactions(client, common);
        KafkaFetchComponent c = e.getComponent();
        return new TaskSettings(client.groupId(), props, common, keyDeserializer, valueDeserializer, topics, pattern,
                client.pollTimeoutMs(), maxPollRecords, o.getMaxInFlightRecords(), o.getMaxConcurrency(),
                o.getOrdering(), o.isAutoCommitEnable(), autoCommitIntervalMs, finishedCommitIntervalMs,
                client.commitTimeoutMs(),
                o.getShutdownTimeout(), o.getRevokeTimeoutMs(), o.getSeekTo(), o.getStallTimeoutMs(), dlt,
                o.isBreakOnFirstError(), o.getBreakOnFirstErrorMaxAttempts(), o.isAllowManualCommit(), o.isBatching(),
                o.getBatchingIntervalMs() == null ? 0 : o.getBatchingIntervalMs(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval(), masker(props),
                o.isOffsetMap(), retries, transactions);
    }

    /**
     * A warning when {@code maxConcurrency} can never be reached: a fetch task holds at most {@code maxInFlightRecords}
     * records, so no more of them are ever in the route at once. Null when it can be.
     */
    static String concurrencyBeyondWindow(int maxConcurrency, int maxInFlightRecords) {
        if (maxConcurrency <= maxInFlightRecords) {
            return null;
        }
        return "kafka-fetch option maxConcurrency (" + maxConcurrency + ") is above maxInFlightRecords ("
               + maxInFlightRecords + "): a fetch task holds at most " + maxInFlightRecords + " records, so no more of"
               + " them run at once. Raise maxInFlightRecords above maxConcurrency (twice it keeps records queued for"
               + " the slots) or lower maxConcurrency";
    }

    /**
     * transacted=true: the producer settings, refusing what it cannot keep exactly once (a manual commit or a
     * seek back re-runs records whose outputs are committed; a retry letter leaves the transaction) and requiring a
     * transactional id that is stable and unique per member.
     */
    private TxSettings transactions(ClientOptions client, Properties common) {
        if (!o.isTransacted()) {
            return null;
        }
        String[] refused = { o.isAutoCommitEnable() ? null : "autoCommitEnable=false",
            o.isAllowManualCommit() ? "allowManualCommit=true" : null, o.isBatching() ? "batching=true" : null,
            o.isBreakOnFirstError() ? "breakOnFirstError=true" : null,
            o.getRetryDelays() != null ? "retryDelays" : null };
        for (String option : refused) {
            if (option != null) {
                throw checks.invalid("transacted", "cannot be used with " + option + ": the fetch task commits each"
                                                   + " transaction itself, once the records it covers are finished");
            }
        }
        long timeoutMs = checks.positive("transactionTimeoutMs", o.getTransactionTimeoutMs());
        String prefix = blankToNull(o.getTransactionalIdPrefix());
        if (prefix == null) {
            String member = o.getGroupInstanceId() != null ? o.getGroupInstanceId() : blankToNull(o.getClientId());
            if (member == null) {
                throw checks.invalid("transactionalIdPrefix", "is required with transacted=true unless groupInstanceId"
                                                              + " or clientId is set: each member needs a"
                                                              + " transactional id of its own that stays the same"
                                                              + " after a restart");
            }
            prefix = "kafka-fetch-" + client.groupId() + "-" + member;
        }
        return new TxSettings(prefix.trim(), common, ProducerTuning.settings(checks, o, client.commitTimeoutMs()),
                timeoutMs);
    }

    /**
     * The retry topics from retryDelays and retryTopicPattern, or null without retryDelays. Delays must be positive and
     * increasing; the topics must be distinct from each other, from the sources and from the dead-letter topic.
     */
    private RetryPlan retryPlan(List<String> topics, String dlt) {
        String text = o.getRetryDelays();
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            throw checks.invalid("retryDelays", "is empty: give durations, e.g. 1s,30s,5m");
        }
        if (o.isBreakOnFirstError()) {
            throw checks.invalid("retryDelays", "cannot be used with breakOnFirstError:"
                                                + " a retried record leaves its partition's order, breakOnFirstError"
                                                + " keeps it; choose one");
        }
        if (topics == null) {
            throw checks.invalid("retryDelays", "needs topic names, not a pattern"
                                                + " (topicIsPattern=true): the retry topics are named after them");
        }
        String[] parts = text.split(",", -1);
        long[] delays = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                delays[i] = TimeUtils.toMilliSeconds(parts[i].trim());
            } catch (RuntimeException ex) {
                throw new IllegalArgumentException("kafka-fetch option retryDelays: '" + parts[i].trim()
                                                   + "' is not a duration (e.g. 500, 1s, 30s, 5m)",
                        ex);
            }
            if (delays[i] <= 0) {
                throw new IllegalArgumentException("kafka-fetch option retryDelays: every delay must be positive, was '"
                                                   + parts[i].trim() + "'");
            }
            if (i > 0 && delays[i] <= delays[i - 1]) {
                throw checks.invalid("retryDelays", "must increase, but '"
                                                    + parts[i].trim() + "' follows '" + parts[i - 1].trim() + "'");
            }
        }
        String pattern = checks.required("retryTopicPattern", o.getRetryTopicPattern());
        if (!pattern.contains("{n}") || topics.size() > 1 && !pattern.contains("{topic}")) {
            throw checks.invalid("retryTopicPattern", "(" + pattern + ") must contain {n}"
                                                      + (topics.size() > 1 ? " and {topic}" : "")
                                                      + ", so that every retry topic has a name of its own");
        }
        RetryPlan plan = new RetryPlan(topics, delays, pattern);
        for (String retryTopic : plan.retryTopics()) {
            if (topics.contains(retryTopic) || retryTopic.equals(dlt)) {
                throw checks.invalid("retryTopicPattern", "makes retry topic " + retryTopic
                                                          + ", which is also " + (topics.contains(retryTopic)
                                                                  ? "a topic this endpoint consumes"
                                                                  : "the deadLetterTopic"));
            }
        }
        return plan;
    }
}
