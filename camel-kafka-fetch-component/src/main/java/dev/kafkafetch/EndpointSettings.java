package dev.kafkafetch;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.kafkafetch.task.TaskSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns an endpoint's options into {@link TaskSettings}, refusing bad input with an {@link IllegalArgumentException}
 * whose message names the option: missing brokers or groupId, non-positive counts and timeouts, unknown enum values,
 * deserializer or assignor classes that cannot be loaded, and Kafka settings that would break the guarantees.
 */
final class EndpointSettings {

    private static final Set<String> OFFSET_RESETS = Set.of("latest", "earliest", "none");
    private static final Set<String> GROUP_PROTOCOLS = Set.of("classic", "consumer");
    private static final Set<String> ISOLATION_LEVELS = Set.of("read_uncommitted", "read_committed");

    private final KafkaFetchEndpoint e;

    EndpointSettings(KafkaFetchEndpoint endpoint) {
        this.e = endpoint;
    }

    TaskSettings build() {
        String brokers = required("brokers", e.getBrokers());
        String groupId = required("groupId", e.getGroupId());
        positive("consumersCount", e.getConsumersCount());
        positive("maxPollRecords", e.getMaxPollRecords());
        positive("pollTimeoutMs", e.getPollTimeoutMs());
        positive("autoCommitIntervalMs", e.getAutoCommitIntervalMs());
        positive("commitTimeoutMs", e.getCommitTimeoutMs());
        positive("shutdownTimeout", e.getShutdownTimeout());
        positive("sessionTimeoutMs", e.getSessionTimeoutMs());
        positive("heartbeatIntervalMs", e.getHeartbeatIntervalMs());
        positive("maxConcurrency", e.getMaxConcurrency());
        positive("maxInFlightRecords", e.getMaxInFlightRecords());
        notNegative("revokeTimeoutMs", e.getRevokeTimeoutMs());
        notNegative("stallTimeoutMs", e.getStallTimeoutMs());
        if (e.getMaxPollIntervalMs() != null) {
            positive("maxPollIntervalMs", e.getMaxPollIntervalMs());
        }
        if (e.getBatchingIntervalMs() != null) {
            positive("batchingIntervalMs", e.getBatchingIntervalMs());
        }
        notNegative("breakOnFirstErrorMaxAttempts", e.getBreakOnFirstErrorMaxAttempts());
        if (e.getPollOnError() == null) {
            throw new IllegalArgumentException(
                    "kafka-fetch option pollOnError must be DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP");
        }
        if (e.isAllowManualCommit() && e.getKafkaManualCommitFactory() == null) {
            throw new IllegalArgumentException("kafka-fetch option kafkaManualCommitFactory is required with"
                                               + " allowManualCommit=true");
        }
        if (e.getMaxInFlightRecords() < e.getMaxPollRecords()) {
            throw new IllegalArgumentException("kafka-fetch option maxInFlightRecords (" + e.getMaxInFlightRecords()
                                               + ") must be at least maxPollRecords (" + e.getMaxPollRecords()
                                               + "): one poll must fit in the window");
        }
        if (e.getOrdering() == null) {
            throw new IllegalArgumentException("kafka-fetch option ordering must be PARTITION, KEY or UNORDERED");
        }
        String offsetReset = oneOf("autoOffsetReset", e.getAutoOffsetReset(), OFFSET_RESETS);
        String groupProtocol = oneOf("groupProtocol", e.getGroupProtocol(), GROUP_PROTOCOLS);
        String isolation = oneOf("isolationLevel", e.getIsolationLevel(), ISOLATION_LEVELS);
        Class<?> keyDeserializer = deserializer("keyDeserializer", e.getKeyDeserializer());
        Class<?> valueDeserializer = deserializer("valueDeserializer", e.getValueDeserializer());

        List<String> topics = null;
        Pattern pattern = null;
        if (e.isTopicIsPattern()) {
            try {
                pattern = Pattern.compile(e.getTopic());
            } catch (PatternSyntaxException ex) {
                throw new IllegalArgumentException("kafka-fetch topic '" + e.getTopic()
                                                   + "' is not a valid regular expression (topicIsPattern=true): "
                                                   + ex.getDescription(), ex);
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
        String dlt = e.getDeadLetterTopic();
        if (dlt != null && (topics != null && topics.contains(dlt) || pattern != null && pattern.matcher(dlt).matches())) {
            throw new IllegalArgumentException("kafka-fetch option deadLetterTopic (" + dlt
                                               + ") must not be a topic this endpoint consumes");
        }

        Properties common = new Properties();
        common.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        common.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, e.getSecurityProtocol());
        if (e.getSaslMechanism() != null) {
            common.put(SaslConfigs.SASL_MECHANISM, e.getSaslMechanism());
        }
        if (e.getSaslJaasConfig() != null) {
            common.put(SaslConfigs.SASL_JAAS_CONFIG, e.getSaslJaasConfig());
        }

        Properties props = new Properties();
        props.putAll(common);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        if (e.getGroupInstanceId() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, e.getGroupInstanceId());
        }
        if (e.getClientId() != null) {
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, e.getClientId());
        }
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(e.getMaxPollRecords()));
        if (e.getMaxPollIntervalMs() != null) {
            props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, Integer.toString(e.getMaxPollIntervalMs()));
        }
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
        if ("classic".equals(groupProtocol)) {
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(e.getSessionTimeoutMs()));
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString(e.getHeartbeatIntervalMs()));
            if (e.getPartitionAssignor() != null) {
                loadable("partitionAssignor", e.getPartitionAssignor());
                props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, e.getPartitionAssignor());
            }
        } else if (e.getGroupRemoteAssignor() != null) {
            props.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, e.getGroupRemoteAssignor());
        }
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());

        Map<String, Object> extra = e.getAdditionalProperties();
        if (extra != null) {
            for (Map.Entry<String, Object> entry : extra.entrySet()) {
                String key = entry.getKey();
                Object value = entry.getValue();
                if (ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG.equals(key) && "true".equalsIgnoreCase(String.valueOf(value))) {
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
                e.getPollTimeoutMs(), e.getMaxPollRecords(), e.getMaxInFlightRecords(), e.getMaxConcurrency(),
                e.getOrdering(), e.isAutoCommitEnable(), e.getAutoCommitIntervalMs(), e.getCommitTimeoutMs(),
                e.getShutdownTimeout(), e.getRevokeTimeoutMs(), e.getSeekTo(), e.getStallTimeoutMs(), dlt,
                e.isBreakOnFirstError(), e.getBreakOnFirstErrorMaxAttempts(), e.isAllowManualCommit(), e.isBatching(),
                e.getBatchingIntervalMs() == null ? 0 : e.getBatchingIntervalMs(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval());
    }

    private static String required(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " is required");
        }
        return value.trim();
    }

    private static void positive(String option, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must be positive, was " + value);
        }
    }

    private static void notNegative(String option, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must not be negative, was " + value);
        }
    }

    private static String oneOf(String option, String value, Set<String> allowed) {
        String v = value == null ? null : value.trim().toLowerCase(Locale.ROOT);
        if (v == null || !allowed.contains(v)) {
            throw new IllegalArgumentException("kafka-fetch option " + option + " must be one of " + allowed + ", was "
                                               + value);
        }
        return v;
    }

    private Class<?> loadable(String option, String className) {
        try {
            return e.getCamelContext().getClassResolver().resolveMandatoryClass(className);
        } catch (ClassNotFoundException ex) {
            throw new IllegalArgumentException("kafka-fetch option " + option + ": class " + className
                                               + " cannot be found", ex);
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
