package dev.kafkafetch;

import java.util.Properties;

import dev.kafkafetch.task.TaskSettings;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the classic scheme's settings factory ({@link EndpointSettings} on {@link ConsumerSettingsFactory}) builds from
 * valid options, without a broker: the consumer reads raw bytes and never auto-commits; the group protocol decides
 * which group settings the consumer gets; additionalProperties reach the consumer, and the security ones every client;
 * secrets are masked; retry topics join the subscription; each task of several gets its own client
 * and instance id. The refusals are in {@link BadOptionsTest}.
 */
class EndpointSettingsTest {

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

    private TaskSettings settings(String options) {
        return context.getEndpoint("kafka-fetch:a,b?brokers=host:9092&groupId=g" + options,
                KafkaFetchEndpoint.class).taskSettings();
    }

    @Test
    void theConsumerReadsRawBytesAndNeverAutoCommits() {
        TaskSettings s = settings("&valueDeserializer=" + StringDeserializer.class.getName());
        Properties p = s.properties();

        assertThat(p).containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "host:9092")
                .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "g")
                .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false")
                .containsEntry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName())
                .containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName())
                .containsEntry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest")
                .containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(s.maxPollRecords()));
        assertThat(s.valueDeserializer()).as("deserialized per record on the fetch thread")
                .isEqualTo(StringDeserializer.class);
        assertThat(s.groupId()).isEqualTo("g");
        assertThat(s.topics()).containsExactly("a", "b");
    }

    @Test
    void aConcurrencyTheWindowCannotHoldIsNamedWithBothOptions() {
        assertThat(EndpointSettings.concurrencyBeyondWindow(10_000, 5000))
                .startsWith("kafka-fetch option maxConcurrency (10000) is above maxInFlightRecords (5000)")
                .contains("at most 5000 records");
        assertThat(EndpointSettings.concurrencyBeyondWindow(5000, 5000)).isNull();
        assertThat(EndpointSettings.concurrencyBeyondWindow(8, 5000)).isNull();
        assertThat(settings("&maxConcurrency=10000").maxConcurrency()).as("a warning, not a refusal")
                .isEqualTo(10_000);
    }

    @Test
    void theClassicProtocolGetsSessionSettingsAndTheConsumerProtocolItsRemoteAssignor() {
        Properties classic = settings("&sessionTimeoutMs=20000&heartbeatIntervalMs=2000").properties();
        assertThat(classic).containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic")
                .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "20000")
                .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "2000");

        Properties consumer = settings("&groupProtocol=consumer&groupRemoteAssignor=uniform").properties();
        assertThat(consumer).containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")
                .containsEntry(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "uniform")
                .doesNotContainKeys(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);
    }

    @Test
    void additionalPropertiesReachTheConsumerAndSecurityOnesEveryClient() {
        TaskSettings s = settings("&additionalProperties.fetch.max.wait.ms=77"
                                  + "&additionalProperties.ssl.endpoint.identification.algorithm=https"
                                  + "&additionalProperties.enable.auto.commit=false");

        assertThat(s.properties()).containsEntry("fetch.max.wait.ms", "77")
                .containsEntry("ssl.endpoint.identification.algorithm", "https")
                .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        assertThat(s.producerProperties()).as("the dead-letter producer's settings")
                .containsEntry("ssl.endpoint.identification.algorithm", "https")
                .doesNotContainKey("fetch.max.wait.ms")
                .containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "host:9092");
    }

    @Test
    void maxPollIntervalIsPassedOnlyWhenSet() {
        assertThat(settings("").properties()).doesNotContainKey(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        assertThat(settings("&maxPollIntervalMs=90000").properties())
                .containsEntry(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "90000");
    }

    @Test
    void theMaskerHidesTheConfiguredSecrets() {
        TaskSettings s = settings("&saslAuthType=PLAIN&saslUsername=user&saslPassword=hush-1234"
                                  + "&sslKeystorePassword=store-5678");
        String jaas = s.properties().getProperty("sasl.jaas.config");
        assertThat(jaas).as("premise: the shorthand built a JAAS line").contains("hush-1234");

        assertThat(s.masker().mask("bad config " + jaas)).doesNotContain("hush-1234");
        assertThat(s.masker().mask("keystore store-5678 cannot be opened")).doesNotContain("store-5678");
    }

    @Test
    void theMaskerHidesAShorthandSecretQuotedAlone() {
        // an error may quote the password or client secret without the JAAS line built around it
        TaskSettings plain = settings("&saslAuthType=PLAIN&saslUsername=user&saslPassword=hush-1234");
        assertThat(plain.masker().mask("authentication failed for hush-1234")).doesNotContain("hush-1234");

        TaskSettings oauth = settings("&saslAuthType=OAUTH&oauthClientId=app&oauthClientSecret=quiet-5678"
                                      + "&oauthTokenEndpointUri=https://idp/token");
        assertThat(oauth.masker().mask("token request with quiet-5678 refused")).doesNotContain("quiet-5678");
    }

    @Test
    void retryTopicsJoinTheSubscription() {
        TaskSettings s = settings("&retryDelays=1s,1m&retryTopicPattern={topic}.retry-{n}");

        assertThat(s.subscribedTopics()).containsExactly("a", "b", "a.retry-1", "a.retry-2", "b.retry-1",
                "b.retry-2");
        assertThat(s.retries().delayAfter("a")).isEqualTo(1_000);
    }

    @Test
    void eachTaskOfSeveralGetsItsOwnClientAndInstanceId() {
        TaskSettings s = settings("&clientId=c&groupInstanceId=i&consumersCount=2");

        assertThat(s.forTask(0, 1)).isSameAs(s);
        Properties second = s.forTask(1, 2).properties();
        assertThat(second).containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "c-1")
                .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "i-1");
        assertThat(s.properties()).as("the endpoint's own stay as they are")
                .containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "c");
        assertThat(s.forTask(0, 2).properties()).containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "c-0");
    }
}
