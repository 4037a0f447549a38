package dev.kafkafetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.share.ShareSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import static dev.kafkafetch.OptionChecks.blankToNull;
import static dev.kafkafetch.OptionChecks.notNegative;
import static dev.kafkafetch.OptionChecks.positive;
import static dev.kafkafetch.OptionChecks.putIfSet;
import static dev.kafkafetch.OptionChecks.required;

/**
 * Turns a {@code kafka-fetch-share} endpoint's options into {@link ShareSettings}, refusing bad input with an
 * {@link IllegalArgumentException} whose message names the option: missing brokers or groupId, non-positive counts and
 * timeouts, ordering PARTITION, deserializer classes that cannot be loaded, and client settings a share consumer
 * refuses or that would break the acknowledgement guarantees (the acknowledgement and acquire modes are the
 * component's).
 */
final class ShareEndpointSettings {

    /** Client settings refused in additionalProperties, and why. */
    static final Map<String, String> REFUSED_CLIENT_SETTINGS = refusedClientSettings();
    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(password|jaas|secret|token|credential|\\.key$)");

    private final KafkaFetchShareEndpoint e;
    private final KafkaFetchShareConfiguration o;

    ShareEndpointSettings(KafkaFetchShareEndpoint endpoint) {
        this.e = endpoint;
        this.o = endpoint.getConfiguration();
    }

    ShareSettings build() {
        try {
            return checkedBuild();
        } catch (IllegalArgumentException ex) {
            String message = String.valueOf(ex.getMessage());
            if (message.startsWith("kafka-fetch option")) {
                throw new IllegalArgumentException("kafka-fetch-share" + message.substring("kafka-fetch".length()), ex);
            }
            throw ex;
        }
    }

    private ShareSettings checkedBuild() {
        String brokers = required("brokers", o.getBrokers());
        String groupId = required("groupId", o.getGroupId());
        positive("consumersCount", o.getConsumersCount());
        int maxPollRecords = (int) positive("maxPollRecords", o.getMaxPollRecords());
        long pollTimeoutMs = positive("pollTimeoutMs", o.getPollTimeoutMs());
        long commitTimeoutMs = positive("commitTimeoutMs", o.getCommitTimeoutMs());
        positive("shutdownTimeout", o.getShutdownTimeout());
        positive("maxConcurrency", o.getMaxConcurrency());
        positive("maxInFlightRecords", o.getMaxInFlightRecords());
        positive("maxDeliveryAttempts", o.getMaxDeliveryAttempts());
        if (o.getMaxPollIntervalMs() != null) {
            positive("maxPollIntervalMs", o.getMaxPollIntervalMs());
        }
        for (Map.Entry<String, Number> sizeOrTime : clientNumbers().entrySet()) {
            notNegative(sizeOrTime.getKey(), sizeOrTime.getValue());
        }
        if (o.getPollOnError() == null) {
            throw new IllegalArgumentException(
                    "kafka-fetch-share option pollOnError must be DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP");
        }
        if (o.getMaxInFlightRecords() < maxPollRecords) {
            throw new IllegalArgumentException("kafka-fetch-share option maxInFlightRecords ("
                                               + o.getMaxInFlightRecords() + ") must be at least maxPollRecords ("
                                               + maxPollRecords + "): one poll must fit");
        }
        Ordering ordering = o.getOrdering();
        if (ordering == null || ordering == Ordering.PARTITION) {
            throw new IllegalArgumentException("kafka-fetch-share option ordering must be UNORDERED or KEY, was "
                                               + ordering + ": a share group delivers one partition's records to"
                                               + " several members at once, so no partition order can hold");
        }
        Class<?> keyDeserializer = deserializer("keyDeserializer", o.getKeyDeserializer());
        Class<?> valueDeserializer = deserializer("valueDeserializer", o.getValueDeserializer());

        List<String> topics = new ArrayList<>();
        for (String t : e.getTopic().split(",")) {
            if (!t.isBlank()) {
                topics.add(t.trim());
            }
        }
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("kafka-fetch-share topic is empty");
        }
        String dlt = blankToNull(o.getDeadLetterTopic());
        if (dlt != null && topics.contains(dlt)) {
            throw new IllegalArgumentException("kafka-fetch-share option deadLetterTopic (" + dlt
                                               + ") must not be a topic this endpoint consumes");
        }

        // shared by the share consumers, the dead-letter producer and the admin client
        Properties common = new Properties();
        common.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        putIfSet(common, CommonClientConfigs.METADATA_MAX_AGE_CONFIG, o.getMetadataMaxAgeMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, o.getRetryBackoffMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, o.getRetryBackoffMaxMs());
        putIfSet(common, CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, o.getReconnectBackoffMaxMs());
        common.putAll(new SecuritySettings(o.connectionOptions(), e.getCamelContext()).build());

        Properties props = new Properties();
        props.putAll(common);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        if (o.getClientId() != null) {
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, o.getClientId());
        }
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        props.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        if (o.getMaxPollIntervalMs() != null) {
            props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, Integer.toString(o.getMaxPollIntervalMs()));
        }
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        putIfSet(props, ConsumerConfig.FETCH_MIN_BYTES_CONFIG, o.getFetchMinBytes());
        putIfSet(props, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, o.getFetchMaxBytes());
        putIfSet(props, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, o.getFetchWaitMaxMs());
        putIfSet(props, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, o.getMaxPartitionFetchBytes());
        putIfSet(props, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, o.getConsumerRequestTimeoutMs());
        putIfSet(props, ConsumerConfig.CHECK_CRCS_CONFIG, o.getCheckCrcs());
        // read by the deserializers (kafka-fetch-share configures them with the consumer's settings)
        putIfSet(props, "schema.registry.url", blankToNull(o.getSchemaRegistryURL()));
        if (o.isSpecificAvroReader()) {
            props.put("specific.avro.reader", "true");
        }
        Map<String, Object> extra = o.getAdditionalProperties();
        if (extra != null) {
            for (Map.Entry<String, Object> entry : extra.entrySet()) {
                String key = entry.getKey();
                if (entry.getValue() == null) {
                    continue;
                }
                String why = REFUSED_CLIENT_SETTINGS.get(key);
                if (why != null) {
                    throw new IllegalArgumentException("kafka-fetch-share option additionalProperties." + key
                                                       + " is refused: " + why);
                }
                props.put(key, entry.getValue());
                if (key.startsWith("ssl.") || key.startsWith("sasl.") || key.startsWith("security.")) {
                    common.put(key, entry.getValue());
                }
            }
        }

        KafkaFetchShareComponent c = e.getComponent();
        return new ShareSettings(groupId, props, common, keyDeserializer, valueDeserializer, List.copyOf(topics),
                pollTimeoutMs, maxPollRecords, o.getMaxInFlightRecords(), o.getMaxConcurrency(), ordering,
                o.getMaxDeliveryAttempts(), dlt, commitTimeoutMs, o.getShutdownTimeout(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval(), masker(props));
    }

    private static Map<String, String> refusedClientSettings() {
        Map<String, String> m = new LinkedHashMap<>();
        String groupConfig = "it is a share group setting (kafka-configs --entity-type groups, or"
                             + " Admin.incrementalAlterConfigs), not a consumer's";
        m.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "where a share group starts is the group config"
                                                       + " share.auto.offset.reset; " + groupConfig);
        m.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "a share consumer commits no offsets; each record is"
                                                        + " acknowledged when it finishes");
        m.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "share groups have no static membership");
        m.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "the group config share.isolation.level decides; "
                                                     + groupConfig);
        m.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, "the broker assigns a share group's partitions");
        m.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "the broker assigns a share group's partitions");
        m.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, "a share consumer takes no interceptors");
        m.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "the group config share.session.timeout.ms decides; "
                                                        + groupConfig);
        m.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "the group config share.heartbeat.interval.ms decides; "
                                                           + groupConfig);
        m.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "share groups have their own protocol");
        m.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "kafka-fetch-share acknowledges every record"
                                                                + " explicitly, as its outcome is decided");
        m.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "kafka-fetch-share acquires at most maxPollRecords records"
                                                        + " per poll (record_limit), so none waits with a running"
                                                        + " lock before it is handed out");
        m.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "use keyDeserializer");
        m.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "use valueDeserializer");
        return Map.copyOf(m);
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

    private static SecretMasker masker(Properties props) {
        List<String> secrets = new ArrayList<>();
        props.forEach((k, v) -> {
            if (SECRET_KEY.matcher(String.valueOf(k)).find() && v != null) {
                secrets.add(String.valueOf(v));
            }
        });
        return new SecretMasker(secrets);
    }

    private Class<?> deserializer(String option, String className) {
        Class<?> type;
        try {
            type = e.getCamelContext().getClassResolver().resolveMandatoryClass(required(option, className));
        } catch (ClassNotFoundException ex) {
            throw new IllegalArgumentException("kafka-fetch-share option " + option + ": class " + className
                                               + " cannot be found",
                    ex);
        }
        if (!Deserializer.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("kafka-fetch-share option " + option + ": class " + className
                                               + " does not implement " + Deserializer.class.getName());
        }
        return type;
    }
}
