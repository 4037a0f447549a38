package dev.kafkafetch.testinfra;

import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(KafkaBrokerExtension.class)
class ExtendWithRegistrationTest {

    static String bootstrapInBeforeAll;

    @BeforeAll
    static void beforeAll(KafkaService kafka) {
        bootstrapInBeforeAll = kafka.bootstrapServers();
    }

    @Test
    void resolvesTheSharedServiceAndAHelper(KafkaService kafka, KafkaTestSupport support) {
        assertThat(kafka).isSameAs(KafkaServices.shared());
        assertThat(bootstrapInBeforeAll).isEqualTo(kafka.bootstrapServers());
        assertThat(support.bootstrapServers()).isEqualTo(kafka.bootstrapServers());
        String topic = KafkaTestSupport.uniqueName("autocreated");
        support.produce(topic, null, "k", "v", null); // auto.create.topics.enable=true
        assertThat(support.readAll(topic, Duration.ofSeconds(20))).singleElement()
                .satisfies(r -> assertThat(r.value()).isEqualTo("v"));
    }
}
