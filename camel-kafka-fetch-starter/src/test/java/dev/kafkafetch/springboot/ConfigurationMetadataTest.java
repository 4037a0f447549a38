package dev.kafkafetch.springboot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter ships Spring Boot configuration metadata, so IDEs complete and document every
 * {@code camel.component.kafka-fetch.*} and {@code camel.component.kafka-fetch-share.*} property, and registers both
 * auto-configurations.
 */
class ConfigurationMetadataTest {

    @Test
    void metadataDescribesTheComponentOptions() throws IOException {
        String json = resource("META-INF/spring-configuration-metadata.json");
        assertThat(json).contains("\"camel.component.kafka-fetch.brokers\"", "\"camel.component.kafka-fetch.group-id\"",
                "\"camel.component.kafka-fetch.max-concurrency\"", "\"camel.component.kafka-fetch.sasl-auth-type\"",
                "\"camel.component.kafka-fetch.ssl-context-parameters\"",
                "\"camel.component.kafka-fetch.kafka-client-factory\"");
        assertThat(json).contains("URL of the Kafka brokers to use");
    }

    @Test
    void metadataDescribesTheShareComponentOptions() throws IOException {
        String json = resource("META-INF/spring-configuration-metadata.json");
        assertThat(json).contains("\"camel.component.kafka-fetch-share.brokers\"",
                "\"camel.component.kafka-fetch-share.group-id\"",
                "\"camel.component.kafka-fetch-share.max-delivery-attempts\"",
                "\"camel.component.kafka-fetch-share.sasl-auth-type\"",
                "\"camel.component.kafka-fetch-share.create-consumer-backoff-interval\"");
        assertThat(json).contains("How many deliveries (the broker's delivery count");
    }

    @Test
    void autoConfigurationIsRegistered() throws IOException {
        assertThat(resource("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))
                .contains(KafkaFetchComponentAutoConfiguration.class.getName(),
                        KafkaFetchShareComponentAutoConfiguration.class.getName());
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
