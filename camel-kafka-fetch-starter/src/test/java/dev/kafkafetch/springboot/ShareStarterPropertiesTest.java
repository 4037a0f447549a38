package dev.kafkafetch.springboot;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.share.KafkaFetchShareComponent;
import dev.kafkafetch.share.KafkaFetchShareEndpoint;
import dev.kafkafetch.share.ShareSettings;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share scheme's typed properties ({@code camel.component.kafka-fetch-share.*}) configure the kafka-fetch-share
 * component as the classic ones configure kafka-fetch: options of its own (maxDeliveryAttempts), options both schemes
 * share (brokers, SASL shorthand) and component options (backoffs) reach an endpoint that names only its topic, and
 * neither scheme's properties reach the other's component. No broker: the endpoint's settings are read, no route runs.
 */
@SpringBootTest(classes = ShareStarterPropertiesTest.App.class, properties = {
    "test.kafka.brokers=localhost:1",
    "camel.component.kafka-fetch-share.brokers=b1:9092",
    "camel.component.kafka-fetch-share.group-id=share-app",
    "camel.component.kafka-fetch-share.max-concurrency=6",
    "camel.component.kafka-fetch-share.ordering=KEY",
    "camel.component.kafka-fetch-share.max-delivery-attempts=3",
    "camel.component.kafka-fetch-share.sasl-auth-type=PLAIN",
    "camel.component.kafka-fetch-share.sasl-username=share-user",
    "camel.component.kafka-fetch-share.sasl-password=share-secret",
    "camel.component.kafka-fetch-share.create-consumer-backoff-interval=1234" })
class ShareStarterPropertiesTest {

    @Autowired
    private CamelContext camelContext;

    @Test
    void shareOptionsComeFromTheirOwnProperties() {
        KafkaFetchShareComponent share = camelContext.getComponent("kafka-fetch-share",
                KafkaFetchShareComponent.class);
        assertThat(share.getConfiguration().getBrokers()).isEqualTo("b1:9092");
        assertThat(share.getConfiguration().getGroupId()).isEqualTo("share-app");
        assertThat(share.getConfiguration().getMaxDeliveryAttempts()).isEqualTo(3);
        assertThat(share.getCreateConsumerBackoffInterval()).isEqualTo(1234);

        ShareSettings settings = camelContext.getEndpoint("kafka-fetch-share:orders", KafkaFetchShareEndpoint.class)
                .shareSettings();
        assertThat(settings.groupId()).isEqualTo("share-app");
        assertThat(settings.maxConcurrency()).isEqualTo(6);
        assertThat(settings.ordering()).isEqualTo(Ordering.KEY);
        assertThat(settings.maxDeliveryAttempts()).isEqualTo(3);
        assertThat(settings.createConsumerBackoffIntervalMs()).isEqualTo(1234);
        assertThat(settings.properties()).containsEntry("bootstrap.servers", "b1:9092")
                .containsEntry("group.id", "share-app").containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN");
        assertThat(String.valueOf(settings.properties().get("sasl.jaas.config"))).contains("share-user");

        // application.properties sets the classic scheme's: neither leaks into the other
        KafkaFetchComponent classic = camelContext.getComponent("kafka-fetch", KafkaFetchComponent.class);
        assertThat(classic.getConfiguration().getGroupId()).isEqualTo("starter-app");
        assertThat(classic.getConfiguration().getBrokers()).isEqualTo("localhost:1");
        assertThat(share.getConfiguration().getSaslUsername()).isEqualTo("share-user");
        assertThat(classic.getConfiguration().getSaslUsername()).isEqualTo("app");
    }

    @Configuration
    @EnableAutoConfiguration
    static class App {
    }
}
