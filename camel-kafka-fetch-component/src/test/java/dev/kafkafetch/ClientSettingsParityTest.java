package dev.kafkafetch;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.component.kafka.KafkaEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same options give the same Kafka client settings as camel-kafka 4.22: for each option set below, the consumer
 * properties camel-kafka's {@code KafkaConfiguration.createConsumerProperties()} builds and the ones kafka-fetch builds
 * agree on every key both are concerned with (security, SASL, Kerberos, OAuth, AWS MSK IAM, fetch and network sizes).
 * kafka-fetch's own keys that differ on purpose (raw-byte deserializers, enable.auto.commit=false) are left out; a
 * setting kafka-fetch does not pass is accepted only where camel-kafka passes Kafka's own default (its producer-only
 * options such as send.buffer.bytes, and its TLS protocol defaults).
 */
class ClientSettingsParityTest {

    private static final String BASE = "?brokers=localhost:9092&groupId=g";
    /** Keys kafka-fetch sets differently on purpose: it reads bytes and commits by itself. */
    private static final Set<String> OURS = Set.of("key.deserializer", "value.deserializer", "enable.auto.commit",
            "auto.commit.interval.ms", "bootstrap.servers", "group.id");

    private CamelContext context;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "&clientId=defaults",
        "&saslAuthType=PLAIN&saslUsername=alice&saslPassword=secret",
        "&saslAuthType=SCRAM_SHA_512&saslUsername=bob&saslPassword=pw&securityProtocol=SASL_PLAINTEXT",
        "&saslAuthType=OAUTH&oauthClientId=app&oauthClientSecret=s3cr3t&oauthTokenEndpointUri=https://idp/token",
        "&saslAuthType=OAUTH&oauthClientId=app&oauthClientSecret=s3cr3t&oauthTokenEndpointUri=https://idp/token"
                                                                                                                  + "&oauthScope=kafka",
        "&saslAuthType=AWS_MSK_IAM",
        "&saslAuthType=KERBEROS&saslKerberosServiceName=kafka&kerberosInitCmd=/opt/kinit"
                                     + "&kerberosRenewJitter=0.1&kerberosBeforeReloginMinTime=1000",
        "&securityProtocol=SASL_SSL&saslMechanism=GSSAPI&saslKerberosServiceName=kafka",
        "&saslAuthType=SSL&sslTruststoreLocation=/t.jks&sslTruststorePassword=tp&sslKeystoreLocation=/k.p12"
                                                                                         + "&sslKeystoreType=pkcs12&sslKeystorePassword=kp&sslKeyPassword=kk",
        "&saslAuthType=NONE&sslTruststoreLocation=/t.jks",
        "&securityProtocol=SSL&sslEndpointAlgorithm=none",
        "&fetchMinBytes=10&fetchMaxBytes=2048&fetchWaitMaxMs=50&maxPartitionFetchBytes=4096&checkCrcs=false"
                                                           + "&consumerRequestTimeoutMs=9000&metadataMaxAgeMs=60000"
                                                           + "&retryBackoffMs=7&retryBackoffMaxMs=70"
                                                           + "&reconnectBackoffMaxMs=700",
        "&interceptorClasses=dev.kafkafetch.ClientSettingsParityTest$NoInterceptor&schemaRegistryURL=http://sr:8081"
                                                                                           + "&specificAvroReader=true" })
    void sameOptionsGiveTheSameClientSettingsAsCamelKafka(String options) {
        Properties theirs = context.getEndpoint("kafka:t" + BASE + options, KafkaEndpoint.class).getConfiguration()
                .createConsumerProperties();
        Properties ours = context.getEndpoint("kafka-fetch:t" + BASE + options, KafkaFetchEndpoint.class)
                .taskSettings().properties();

        TreeMap<String, String> expected = new TreeMap<>();
        theirs.forEach((k, v) -> {
            if (!OURS.contains(String.valueOf(k))) {
                expected.put(String.valueOf(k), String.valueOf(v));
            }
        });
        TreeMap<String, String> actual = new TreeMap<>();
        expected.forEach((k, v) -> {
            // a setting kafka-fetch leaves out must be one camel-kafka sets to Kafka's own default
            actual.put(k, ours.containsKey(k) ? String.valueOf(ours.get(k)) : kafkaDefault(k));
        });
        assertThat(actual).isEqualTo(expected);
    }

    /** Kafka's default of a consumer setting, as text ("a,b" for a list); null when it has none. */
    private static String kafkaDefault(String key) {
        Object value = ConsumerConfig.configDef().defaultValues().get(key);
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        return value == null ? null : String.valueOf(value);
    }

    /** A consumer interceptor that does nothing, to prove interceptorClasses is passed through. */
    public static class NoInterceptor implements ConsumerInterceptor<Object, Object> {
        @Override
        public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
            return records;
        }

        @Override
        public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
            // nothing to record
        }

        @Override
        public void close() {
            // nothing to close
        }

        @Override
        public void configure(Map<String, ?> configs) {
            // nothing to configure
        }
    }
}
