package dev.kafkafetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import dev.kafkafetch.security.SecretMasker;
import org.apache.camel.CamelContext;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import static dev.kafkafetch.OptionChecks.blankToNull;
import static dev.kafkafetch.OptionChecks.putIfSet;

/**
 * What turning either scheme's options into its fetch tasks' settings shares: the checks of the client options of
 * {@link KafkaFetchClientConfiguration}, the client settings built from them (those the consumers, the dead-letter
 * producer and the admin client all get, then the consumer's fetch settings), the secret masker and the deserializer
 * classes. Every refusal names the scheme and the option ({@link OptionChecks}); each scheme's factory adds its own
 * options and builds its own settings record.
 */
public abstract class ConsumerSettingsFactory {

    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(password|jaas|secret|token|credential|\\.key$)");

    protected final OptionChecks checks;
    private final KafkaFetchClientConfiguration o;
    private final CamelContext context;

    protected ConsumerSettingsFactory(String scheme, KafkaFetchClientConfiguration configuration,
                                      CamelContext context) {
        this.checks = new OptionChecks(scheme);
        this.o = configuration;
        this.context = context;
    }

    /**
     * The shared options, checked: brokers and group required; fetch task count, concurrency, poll, commit and stop
     * times positive; max.poll.interval.ms positive when set; the Kafka client's sizes and times unset or not negative;
     * pollOnError set.
     *
     * @param brokers        trimmed
     * @param groupId        trimmed
     * @param pollTimeoutMs  positive
     * @param commitTimeoutMs positive
     */
    protected record ClientOptions(String brokers, String groupId, long pollTimeoutMs, long commitTimeoutMs) {
    }

    /** Checks the options of {@link KafkaFetchClientConfiguration}; see {@link ClientOptions}. */
    protected ClientOptions checkClientOptions() {
        String brokers = checks.required("brokers", o.getBrokers());
        String groupId = checks.required("groupId", o.getGroupId());
        checks.positive("consumersCount", o.getConsumersCount());
        long pollTimeoutMs = checks.positive("pollTimeoutMs", o.getPollTimeoutMs());
        long commitTimeoutMs = checks.positive("commitTimeoutMs", o.getCommitTimeoutMs());
        checks.positive("shutdownTimeout", o.getShutdownTimeout());
        checks.positive("maxConcurrency", o.getMaxConcurrency());
        if (o.getMaxPollIntervalMs() != null) {
            checks.positive("maxPollIntervalMs", o.getMaxPollIntervalMs());
        }
        for (Map.Entry<String, Number> sizeOrTime : clientNumbers().entrySet()) {
            checks.notNegative(sizeOrTime.getKey(), sizeOrTime.getValue());
        }
        if (o.getPollOnError() == null) {
            throw checks.invalid("pollOnError", "must be DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP");
        }
        return new ClientOptions(brokers, groupId, pollTimeoutMs, commitTimeoutMs);
    }

    /** The settings every client of the route gets: brokers, metadata and backoff times, security. */
    protected Properties commonProperties(String brokers) {
        Properties common = new Properties();
        common.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        putIfSet(common, CommonClientConfigs.METADATA_MAX_AGE_CONFIG, o.getMetadataMaxAgeMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, o.getRetryBackoffMs());
        putIfSet(common, CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, o.getRetryBackoffMaxMs());
        putIfSet(common, CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, o.getReconnectBackoffMaxMs());
        common.putAll(new SecuritySettings(checks, o, context).build());
        return common;
    }

    /**
     * The consumer's settings both schemes give it: those of every client ({@code common}), group and client id,
     * max.poll.interval.ms when set, byte[] deserializers (the fetch thread deserializes per record), fetch sizes and
     * waits, request timeout, CRC checks, and what the deserializers read (schema registry, specific Avro reader).
     */
    protected Properties consumerProperties(ClientOptions client, Properties common) {
        Properties props = new Properties();
        props.putAll(common);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, client.groupId());
        if (o.getClientId() != null) {
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, o.getClientId());
        }
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
        // read by the deserializers (they are configured with the consumer's settings)
        putIfSet(props, "schema.registry.url", blankToNull(o.getSchemaRegistryURL()));
        if (o.isSpecificAvroReader()) {
            props.put("specific.avro.reader", "true");
        }
        return props;
    }

    /** One additionalProperties entry: a consumer setting, and a setting of every client when it is a security one. */
    protected static void putAdditional(Properties props, Properties common, String key, Object value) {
        props.put(key, value);
        if (key.startsWith("ssl.") || key.startsWith("sasl.") || key.startsWith("security.")) {
            common.put(key, value);
        }
    }

    /** The comma-separated topic names of the endpoint, trimmed; at least one. */
    protected List<String> topicNames(String topic) {
        List<String> topics = new ArrayList<>();
        for (String t : topic.split(",")) {
            if (!t.isBlank()) {
                topics.add(t.trim());
            }
        }
        if (topics.isEmpty()) {
            throw new IllegalArgumentException(checks.scheme() + " topic is empty");
        }
        return topics;
    }

    /**
     * Masks the values of every secret-like client setting (JAAS config, passwords, keys, tokens) and the secrets a
     * saslAuthType shorthand wrapped into its JAAS line (saslPassword, oauthClientSecret), which an error may quote
     * alone.
     */
    protected SecretMasker masker(Properties props) {
        List<String> secrets = new ArrayList<>();
        props.forEach((k, v) -> {
            if (SECRET_KEY.matcher(String.valueOf(k)).find() && v != null) {
                secrets.add(String.valueOf(v));
            }
        });
        secrets.add(o.getSaslPassword());
        secrets.add(o.getOauthClientSecret());
        return new SecretMasker(secrets);
    }

    protected Class<?> loadable(String option, String className) {
        try {
            return context.getClassResolver().resolveMandatoryClass(className);
        } catch (ClassNotFoundException ex) {
            IllegalArgumentException refused = checks.invalid(option, ": class " + className + " cannot be found");
            refused.initCause(ex);
            throw refused;
        }
    }

    protected Class<?> deserializer(String option, String className) {
        Class<?> type = loadable(option, checks.required(option, className));
        if (!Deserializer.class.isAssignableFrom(type)) {
            throw checks.invalid(option,
                    ": class " + className + " does not implement " + Deserializer.class.getName());
        }
        return type;
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
}
