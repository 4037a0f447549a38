package dev.kafkafetch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.kafkafetch.security.KafkaAuthType;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.task.TaskSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
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
    private static final Set<String> SECURITY_PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
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
        positive("consumersCount", o.getConsumersCount());
        positive("maxPollRecords", o.getMaxPollRecords());
        positive("pollTimeoutMs", o.getPollTimeoutMs());
        positive("autoCommitIntervalMs", o.getAutoCommitIntervalMs());
        positive("commitTimeoutMs", o.getCommitTimeoutMs());
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
        if (o.getPollOnError() == null) {
            throw new IllegalArgumentException(
                    "kafka-fetch option pollOnError must be DISCARD, ERROR_HANDLER, RECONNECT, RETRY or STOP");
        }
        if (o.isAllowManualCommit() && o.getKafkaManualCommitFactory() == null) {
            throw new IllegalArgumentException("kafka-fetch option kafkaManualCommitFactory is required with"
                                               + " allowManualCommit=true");
        }
        if (o.getMaxInFlightRecords() < o.getMaxPollRecords()) {
            throw new IllegalArgumentException("kafka-fetch option maxInFlightRecords (" + o.getMaxInFlightRecords()
                                               + ") must be at least maxPollRecords (" + o.getMaxPollRecords()
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
        if (dlt != null
            && (topics != null && topics.contains(dlt) || pattern != null && pattern.matcher(dlt).matches())) {
            throw new IllegalArgumentException("kafka-fetch option deadLetterTopic (" + dlt
                                               + ") must not be a topic this endpoint consumes");
        }

        // shared by the consumers and the dead-letter producer
        Properties common = new Properties();
        common.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        common.putAll(security());

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
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(o.getMaxPollRecords()));
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

        Map<String, Object> extra = o.getAdditionalProperties();
        if (extra != null) {
            for (Map.Entry<String, Object> entry : extra.entrySet()) {
                String key = entry.getKey();
                Object value = entry.getValue();
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
                o.getPollTimeoutMs(), o.getMaxPollRecords(), o.getMaxInFlightRecords(), o.getMaxConcurrency(),
                o.getOrdering(), o.isAutoCommitEnable(), o.getAutoCommitIntervalMs(), o.getCommitTimeoutMs(),
                o.getShutdownTimeout(), o.getRevokeTimeoutMs(), o.getSeekTo(), o.getStallTimeoutMs(), dlt,
                o.isBreakOnFirstError(), o.getBreakOnFirstErrorMaxAttempts(), o.isAllowManualCommit(), o.isBatching(),
                o.getBatchingIntervalMs() == null ? 0 : o.getBatchingIntervalMs(),
                c.getCreateConsumerBackoffMaxAttempts(), c.getCreateConsumerBackoffInterval(),
                c.getSubscribeConsumerBackoffMaxAttempts(), c.getSubscribeConsumerBackoffInterval(), masker(props));
    }

    /**
     * The security settings: securityProtocol, saslMechanism, saslJaasConfig and the ssl* options, or what the
     * saslAuthType shorthand derives (camel-kafka 4.22's rules: a SASL type uses SASL_SSL unless securityProtocol is
     * SASL_PLAINTEXT; an explicit saslJaasConfig wins over the one built from saslUsername and saslPassword).
     * Messages never quote a secret value.
     */
    private Properties security() {
        String protocol = oneOf("securityProtocol", o.getSecurityProtocol(), SECURITY_PROTOCOLS);
        String mechanism = blankToNull(o.getSaslMechanism());
        String jaas = blankToNull(o.getSaslJaasConfig());
        KafkaAuthType auth = o.getSaslAuthType();
        boolean credentialsType = auth != null && auth.usesCredentials();
        if (!credentialsType) {
            String given = o.getSaslUsername() != null ? "saslUsername"
                    : o.getSaslPassword() != null ? "saslPassword" : null;
            if (given != null) {
                throw new IllegalArgumentException("kafka-fetch option " + given + " is only used with saslAuthType"
                                                   + " PLAIN, SCRAM_SHA_256 or SCRAM_SHA_512 (saslAuthType is "
                                                   + (auth == null ? "not set" : auth) + ")");
            }
        }
        if (auth != null && auth.isSasl()) {
            if (jaas == null) {
                if (!credentialsType) {
                    throw new IllegalArgumentException("kafka-fetch option saslAuthType=" + auth
                                                       + " needs saslJaasConfig: kafka-fetch builds the JAAS config"
                                                       + " only for PLAIN, SCRAM_SHA_256 and SCRAM_SHA_512 (other"
                                                       + " sasl.* client settings go through additionalProperties)");
                }
                String username = o.getSaslUsername();
                if (username == null || username.isBlank()) {
                    throw new IllegalArgumentException("kafka-fetch option saslUsername is required with saslAuthType="
                                                       + auth + " (or set saslJaasConfig)");
                }
                String password = o.getSaslPassword();
                if (password == null || password.isEmpty()) {
                    throw new IllegalArgumentException("kafka-fetch option saslPassword is required with saslAuthType="
                                                       + auth + " (or set saslJaasConfig)");
                }
                jaas = auth.jaasConfig(username.trim(), password);
            }
            protocol = "SASL_PLAINTEXT".equals(protocol) ? "SASL_PLAINTEXT" : "SASL_SSL";
            mechanism = auth.mechanism();
        } else if (auth == KafkaAuthType.SSL) {
            protocol = "SSL";
        } else if (auth == KafkaAuthType.NONE) {
            boolean stores = blankToNull(o.getSslKeystoreLocation()) != null
                             || blankToNull(o.getSslTruststoreLocation()) != null;
            protocol = stores || "SSL".equals(protocol) ? "SSL" : "PLAINTEXT";
        }

        Properties p = new Properties();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        putIfSet(p, SaslConfigs.SASL_MECHANISM, mechanism);
        putIfSet(p, SaslConfigs.SASL_JAAS_CONFIG, jaas);
        putIfSet(p, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, o.getSslKeystoreLocation());
        putIfSet(p, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, o.getSslKeystorePassword());
        putIfSet(p, SslConfigs.SSL_KEY_PASSWORD_CONFIG, o.getSslKeyPassword());
        putIfSet(p, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, o.getSslKeystoreType());
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, o.getSslTruststoreLocation());
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, o.getSslTruststorePassword());
        putIfSet(p, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, o.getSslTruststoreType());
        putIfSet(p, SslConfigs.SSL_PROTOCOL_CONFIG, o.getSslProtocol());
        putIfSet(p, SslConfigs.SSL_ENABLED_PROTOCOLS_CONFIG, o.getSslEnabledProtocols());
        putIfSet(p, SslConfigs.SSL_KEYMANAGER_ALGORITHM_CONFIG, o.getSslKeymanagerAlgorithm());
        putIfSet(p, SslConfigs.SSL_TRUSTMANAGER_ALGORITHM_CONFIG, o.getSslTrustmanagerAlgorithm());
        putIfSet(p, SslConfigs.SSL_CIPHER_SUITES_CONFIG, o.getSslCipherSuites());
        putIfSet(p, SslConfigs.SSL_PROVIDER_CONFIG, o.getSslProvider());
        String endpointAlgorithm = o.getSslEndpointAlgorithm();
        if (endpointAlgorithm != null) {
            String a = endpointAlgorithm.trim();
            // as camel-kafka: none or false turns hostname verification off (Kafka's empty value)
            p.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                    a.equalsIgnoreCase("none") || a.equalsIgnoreCase("false") ? "" : a);
        }
        return p;
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

    private static void putIfSet(Properties p, String key, String value) {
        if (value != null && !value.isEmpty()) {
            p.put(key, value);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
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

    /** The value, trimmed and in the letter case of {@code allowed}, when it is one of them (ignoring case). */
    private static String oneOf(String option, String value, Set<String> allowed) {
        String v = value == null ? null : allowed.stream().filter(a -> a.equalsIgnoreCase(value.trim())).findFirst()
                .orElse(null);
        if (v == null) {
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
