package dev.kafkafetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.task.TaskSettings;
import org.apache.camel.util.TimeUtils;
import org.apache.kafka.clients.ClientDnsLookup;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import static dev.kafkafetch.OptionChecks.blankToNull;
import static dev.kafkafetch.OptionChecks.notNegative;
import static dev.kafkafetch.OptionChecks.oneOf;
import static dev.kafkafetch.OptionChecks.positive;
import static dev.kafkafetch.OptionChecks.putIfSet;
import static dev.kafkafetch.OptionChecks.required;

/**
 * Turns an endpoint's options into {@link TaskSettings}, refusing bad input with an {@link IllegalArgumentException}
 * whose message names the option: missing brokers or groupId, non-positive counts and timeouts, unknown enum values,
 * deserializer or assignor classes that cannot be loaded, and Kafka settings that would break the guarantees.
 */
final class EndpointSettings {

    private static final Set<String> OFFSET_RESETS = Set.of("latest", "earliest", "none");
    private static final Set<String> GROUP_PROTOCOLS = Set.of("classic", "consumer");
    private static final Set<String> ISOLATION_LEVELS = Set.of("read_uncommitted", "read_committed");
    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(password|jaas|secret|token|credential|\\.key$)");

    private final KafkaFetchEndpoint e;
    private final KafkaFetchConfiguration o;

    EndpointSettings(KafkaFetchEndpoint endpoint) {
        this.e = endpoint;
        this.o = endpoint.getConfiguration();
    }

    TaskSettings build() {
        String brokers = required("brokers", o.getBrokers());
        String groupId = required("groupId", o.getGroupId());
        if (e.getComponent().isSubscribeConsumerTopicMustExists()) {
            throw new IllegalArgumentException("kafka-fetch component option subscribeConsumerTopicMustExists=true is"
                                               + " not supported: create the topics beforehand (a consumer never"
                                               + " creates them unless"
                                               + " additionalProperties.allow.auto.create.topics=true)");
        }
        positive("consumersCount", o.getConsumersCount());
        int maxPollRecords = (int) positive("maxPollRecords", o.getMaxPollRecords());
        long pollTimeoutMs = positive("pollTimeoutMs", o.getPollTimeoutMs());
        long autoCommitIntervalMs = positive("autoCommitIntervalMs", o.getAutoCommitIntervalMs());
        long commitTimeoutMs = positive("commitTimeoutMs", o.getCommitTimeoutMs());
        positive("shutdownTimeout", o.getShutdownTimeout());
        positive("sessionTimeoutMs", o.getSessionTimeoutMs());
        positive("heartbeatIntervalMs", o.getHeartbeatIntervalMs());
        positive("maxConcurrency", o.getMaxConcurrency());
        positive("maxInFlightRecords", o.getMaxInFlightRecords());
        notNegative("revokeTimeoutMs", o.getRevokeTimeoutMs());
        notNegative("stallTimeoutMs", o.getStallTimeoutMs());
        if (o.getMaxPollIntervalMs() != null) {
            positive("maxPollIntervalMs", o.getMaxPollIntervalMs());
        }
        if (o.getBatchingIntervalMs() != null) {
            positive("batchingIntervalMs", o.getBatchingIntervalMs());
        }
        notNegative("breakOnFirstErrorMaxAttempts", o.getBreakOnFirstErrorMaxAttempts());
        for (Map.Entry<String, Number> sizeOrTime : clientNumbers().entrySet()) {
            notNegative(sizeOrTime.getKey(), sizeOrTime.getValue());
        }
        if (o.getPollOnError() == null) {
            throw new IllegalArgumentException(
                    "kafka-fetch option pollOnError must be DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP");
        }
        if (o.isAllowManualCommit() && o.getKafkaManualCommitFactory() == null) {
            throw new IllegalArgumentException("kafka-fetch option kafkaManualCommitFactory is required with"
                                               + " allowManualCommit=true");
        }
        if (o.getMaxInFlightRecords() < maxPollRecords) {
            throw new IllegalArgumentException("kafka-fetch option maxInFlightRecords (" + o.getMaxInFlightRecords()
                                               + ") must be at least maxPollRecords (" + maxPollRecords
                                               + "): one poll must fit in the window");
        }
        if (o.getOrdering() == null) {
            throw new IllegalArgumentException("kafka-fetch option ordering must be PARTITION, KEY or UNORDERED");
        }
        String offsetReset = oneOf("autoOffsetReset", o.getAutoOffsetReset(), OFFSET_RESETS);
        String groupProtocol = oneOf("groupProtocol", o.getGroupProtocol(), GROUP_PROTOCOLS);
        String isolation = oneOf("isolationLevel", o.getIsolationLevel(), ISOLATION_LEVELS);
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
            topics = new ArrayList<>();
            for (String t : e.getTopic().split(",")) {
                if (!t.isBlank()) {
                    topics.add(t.trim());
                }
            }
            if (topics.isEmpty()) {
                throw new IllegalArgumentException("kafka-fetch topic is empty");
            }
        }
        String dlt = o.getDeadLetterTopic();
        RetryPlan retries = retryPlan(topics, dlt);
        if (dlt != null
            && (topics != null && topics.contains(dlt) || pattern != null && pattern.matcher(dlt).matches())) {
            throw new IllegalArgumentException("kafka-fetch option deadLetterTopic (" + dlt
                                               + ") must not be a topic this endpoint consumes");
        }

        // shared by the consumers and the dead-letter producer
        Properties common = new Properties();
        common.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        putIfSet(common, CommonClientConfigs.METADATA_MAX_AGE_CONFIG, o.getMetadataMaxAgeMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, o.getRetryBackoffMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, o.getRetryBackoffMaxMs());
        putIfSet(common, CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, o.getReconnectBackoffMaxMs());
        common.putAll(new SecuritySettings(o, e.getCamelContext()).build());

        Properties props = new Properties();
        props.putAll(common);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        if (o.getGroupInstanceId() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, o.getGroupInstanceId());
        }
        if (o.getClientId() != null) {
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, o.getClientId());
        }
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        if (o.getMaxPollIntervalMs() != null) {
            props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, Integer.toString(o.getMaxPollIntervalMs()));
        }
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
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        putIfSet(props, ConsumerConfig.FETCH_MIN_BYTES_CONFIG, o.getFetchMinBytes());
        putIfSet(props, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, o.getFetchMaxBytes());
        putIfSet(props, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, o.getFetchWaitMaxMs());
        putIfSet(props, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, o.getMaxPartitionFetchBytes());
        putIfSet(props, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, o.getConsumerRequestTimeoutMs());
        putIfSet(props, ConsumerConfig.CHECK_CRCS_CONFIG, o.getCheckCrcs());
        putIfSet(props, ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, blankToNull(o.getInterceptorClasses()));
        // read by the deserializers (kafka-fetch configures them with the consumer's settings)
        putIfSet(props, "schema.registry.url", blankToNull(o.getSchemaRegistryURL()));
        if (o.isSpecificAvroReader()) {
            props.put("specific.avro.reader", "true");
        }

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
                props.put(key, value);
                if (key.startsWith("ssl.") || key.startsWith("sasl.") || key.startsWith("security.")) {
                    common.put(key, value);
                }
            }
        }

        KafkaFetchComponent c = e.getComponent();
        return new TaskSettings(groupId, props, common, keyDeserializer, valueDeserializer, topics, pattern,
                pollTimeoutMs, maxPollRecords, o.getMaxInFlightRecords(), o.getMaxConcurrency(),
                o.getOrdering(), o.isAutoCommitEnable(), autoCommitIntervalMs, commitTimeoutMs,
                o.getShutdownTimeout(), o.getRevokeTimeoutMs(), o.getSeekTo(), o.getStallTimeoutMs(), dlt,
                o.isBreakOnFirstError(), o.getBreakOnFirstErrorMaxAttempts(), o.isAllowManualCommit(), o.isBatching(),
                o.getBatchingIntervalMs() == null ? 0 : o.getBatchingIntervalMs(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval(), masker(props),
                o.isOffsetMap(), retries);
    }

    /**
     * preValidateHostAndPort, checked when the consumer starts as camel-kafka does: every broker must be a valid
     * host:port, and at least one must resolve.
     */
    static void validateBrokers(String brokers) {
        try {
            ClientUtils.parseAndValidateAddresses(List.of(brokers.split(",")), ClientDnsLookup.USE_ALL_DNS_IPS);
        } catch (ConfigException ex) {
            throw new IllegalArgumentException("kafka-fetch option brokers (" + brokers + "): " + ex.getMessage()
                                               + " (checked because preValidateHostAndPort=true; with false the"
                                               + " fetch task keeps retrying instead)",
                    ex);
        }
    }

    /** The Kafka client sizes and times that may be left unset but never be negative. */
    private Map<String, Number> clientNumbers() {
        Map<String, Number> numbers = new LinkedHashMap<>();
        numbers.put("metadataMaxAgeMs", o.getMetadataMaxAgeMs());
        numbers.put("reconnectBackoffMaxMs", o.getReconnectBackoffMaxMs());
        numbers.put("retryBackoffMs", o.getRetryBackoffMs());
        numbers.put("retryBackoffMaxMs", o.getRetryBackoffMaxMs());
        numbers.put("consumerRequestTimeoutMs", o.getConsumerRequestTimeoutMs());
        numbers.put("fetchMinBytes", o.getFetchMinBytes());
        numbers.put("fetchMaxBytes", o.getFetchMaxBytes());
        numbers.put("fetchWaitMaxMs", o.getFetchWaitMaxMs());
        numbers.put("maxPartitionFetchBytes", o.getMaxPartitionFetchBytes());
        numbers.put("kerberosBeforeReloginMinTime", o.getKerberosBeforeReloginMinTime());
        numbers.put("kerberosRenewJitter", o.getKerberosRenewJitter());
        numbers.put("kerberosRenewWindowFactor", o.getKerberosRenewWindowFactor());
        return numbers;
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
            throw new IllegalArgumentException(
                    "kafka-fetch option retryDelays is empty: give durations, e.g. 1s,30s,5m");
        }
        if (o.isBreakOnFirstError()) {
            throw new IllegalArgumentException("kafka-fetch option retryDelays cannot be used with breakOnFirstError:"
                                               + " a retried record leaves its partition's order, breakOnFirstError"
                                               + " keeps it; choose one");
        }
        if (topics == null) {
            throw new IllegalArgumentException("kafka-fetch option retryDelays needs topic names, not a pattern"
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
                throw new IllegalArgumentException("kafka-fetch option retryDelays must increase, but '"
                                                   + parts[i].trim() + "' follows '" + parts[i - 1].trim() + "'");
            }
        }
        String pattern = required("retryTopicPattern", o.getRetryTopicPattern());
        if (!pattern.contains("{n}") || topics.size() > 1 && !pattern.contains("{topic}")) {
            throw new IllegalArgumentException("kafka-fetch option retryTopicPattern (" + pattern + ") must contain {n}"
                                               + (topics.size() > 1 ? " and {topic}" : "")
                                               + ", so that every retry topic has a name of its own");
        }
        RetryPlan plan = new RetryPlan(topics, delays, pattern);
        for (String retryTopic : plan.retryTopics()) {
            if (topics.contains(retryTopic) || retryTopic.equals(dlt)) {
                throw new IllegalArgumentException(
                        "kafka-fetch option retryTopicPattern makes retry topic " + retryTopic
                                                   + ", which is also " + (topics.contains(retryTopic)
                                                           ? "a topic this endpoint consumes"
                                                           : "the deadLetterTopic"));
            }
        }
        return plan;
    }

    /** Masks the values of every secret-like client setting (JAAS config, passwords, keys, tokens). */
    private static SecretMasker masker(Properties props) {
        List<String> secrets = new ArrayList<>();
        props.forEach((k, v) -> {
            if (SECRET_KEY.matcher(String.valueOf(k)).find() && v != null) {
                secrets.add(String.valueOf(v));
            }
        });
        return new SecretMasker(secrets);
    }

    private Class<?> loadable(String option, String className) {
        try {
            return e.getCamelContext().getClassResolver().resolveMandatoryClass(className);
        } catch (ClassNotFoundException ex) {
            throw new IllegalArgumentException("kafka-fetch option " + option + ": class " + className
                                               + " cannot be found",
                    ex);
        }
    }

    private Class<?> deserializer(String option, String className) {
        Class<?> type = loadable(option, required(option, className));
        if (!Deserializer.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("kafka-fetch option " + option + ": class " + className
                                               + " does not implement " + Deserializer.class.getName());
        }
        return type;
    }
}
