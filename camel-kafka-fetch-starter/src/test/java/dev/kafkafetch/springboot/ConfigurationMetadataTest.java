package dev.kafkafetch.springboot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter ships Spring Boot configuration metadata, so IDEs complete and document every
 * {@code camel.component.kafka-fetch.*} property, and registers its auto-configuration.
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
    void autoConfigurationIsRegistered() throws IOException {
        assertThat(resource("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))
                .contains(KafkaFetchComponentAutoConfiguration.class.getName());
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
