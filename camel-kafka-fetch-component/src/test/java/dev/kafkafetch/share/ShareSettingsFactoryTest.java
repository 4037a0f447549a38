package dev.kafkafetch.share;

import java.util.Properties;

import dev.kafkafetch.dispatch.Ordering;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the share scheme's settings factory builds from valid options, without a broker: the share consumer
 * acknowledges explicitly and acquires at most maxPollRecords a poll, which defaults to two rounds of maxConcurrency
 * split over the window's consumers, within maxInFlightRecords; it gets none of the consumer-group settings a share consumer refuses; additionalProperties
 * reach it, and the security ones every client; each task of several gets its own client id. The refusals are in
 * {@link ShareBadOptionsTest}.
 */
class ShareSettingsFactoryTest {

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

    private ShareSettings settings(String options) {
        return context.getEndpoint("kafka-fetch-share:a,b?brokers=host:9092&groupId=g" + options,
                KafkaFetchShareEndpoint.class).shareSettings();
    }

    @Test
    void theShareConsumerAcknowledgesExplicitlyAndAcquiresWhatOnePollMayHold() {
        ShareSettings s = settings("&maxConcurrency=8");
        Properties p = s.properties();

        assertThat(p).containsEntry(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit")
                .containsEntry(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit")
                .containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "8")
                .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "g")
                .containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        assertThat(s.maxPollRecords()).as("two rounds of maxConcurrency over the window's two consumers").isEqualTo(8);
        assertThat(s.ordering()).isEqualTo(Ordering.UNORDERED);
        assertThat(s.consumersPerWindow()).as("one acquires while the other's records run").isEqualTo(2);
        assertThat(s.topics()).containsExactly("a", "b");
    }

    @Test
    void keyOrderingGetsOneConsumerPerWindowByDefaultAndAnExplicitCountIsKept() {
        assertThat(settings("&ordering=KEY").consumersPerWindow()).isEqualTo(1);
        assertThat(settings("&consumersPerWindow=1").consumersPerWindow()).isEqualTo(1);
        assertThat(settings("&consumersPerWindow=3").consumersPerWindow()).isEqualTo(3);
    }

    @Test
    void theDefaultPollSplitsTwoRoundsOverTheWindowsConsumersWithinTheWindowAndAnExplicitOneIsKept() {
        assertThat(settings("&maxConcurrency=8&ordering=KEY").maxPollRecords()).as("one consumer").isEqualTo(16);
        assertThat(settings("&maxConcurrency=8&consumersPerWindow=3").maxPollRecords()).as("16 / 3, rounded up")
                .isEqualTo(6);
        assertThat(settings("&maxConcurrency=8&maxInFlightRecords=5").maxPollRecords()).isEqualTo(5);
        assertThat(settings("&maxConcurrency=8&maxPollRecords=3").maxPollRecords()).isEqualTo(3);
    }

    @Test
    void theMaskerHidesAShorthandSecretQuotedAlone() {
        ShareSettings s = settings("&saslAuthType=SCRAM_SHA_512&saslUsername=user&saslPassword=hush-1234");
        assertThat(s.properties().getProperty("sasl.jaas.config")).as("premise: the shorthand built a JAAS line")
                .contains("hush-1234");
        assertThat(s.masker().mask("authentication failed for hush-1234")).doesNotContain("hush-1234");
    }

    @Test
    void theShareConsumerGetsNoConsumerGroupSetting() {
        assertThat(settings("").properties()).doesNotContainKeys(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.GROUP_PROTOCOL_CONFIG,
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        assertThat(ShareSettingsFactory.REFUSED_CLIENT_SETTINGS)
                .containsKeys(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ConsumerConfig.GROUP_PROTOCOL_CONFIG);
    }

    @Test
    void additionalPropertiesReachTheConsumerAndSecurityOnesEveryClient() {
        ShareSettings s = settings("&additionalProperties.fetch.max.wait.ms=77"
                                   + "&additionalProperties.security.protocol=SSL");

        assertThat(s.properties()).containsEntry("fetch.max.wait.ms", "77").containsEntry("security.protocol", "SSL");
        assertThat(s.producerProperties()).containsEntry("security.protocol", "SSL")
                .doesNotContainKey("fetch.max.wait.ms");
    }

    @Test
    void eachTaskOfSeveralGetsItsOwnClientId() {
        ShareSettings s = settings("&clientId=c&consumersCount=2");

        assertThat(s.forTask(1, 2).properties()).containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "c-1");
        assertThat(s.forTask(0, 1)).isSameAs(s);
        assertThat(settings("&consumersCount=2").forTask(1, 2).properties())
                .doesNotContainKey(ConsumerConfig.CLIENT_ID_CONFIG);
    }
}
