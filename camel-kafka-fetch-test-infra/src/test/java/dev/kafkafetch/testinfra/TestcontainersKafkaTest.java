package dev.kafkafetch.testinfra;

import java.time.Duration;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs only where a Docker engine is available; skipped (not failed) elsewhere. */
@Testcontainers(disabledWithoutDocker = true)
class TestcontainersKafkaTest {

    @Test
    void startsAKafkaContainer() {
        try (TestcontainersKafka kafka = new TestcontainersKafka();
             KafkaTestSupport support = new KafkaTestSupport(kafka.bootstrapServers())) {
            assertThat(kafka.brokerCount()).isEqualTo(1);
            String topic = KafkaTestSupport.uniqueName("tc");
            support.createTopic(topic, 3);
            var ids = support.produceIds(topic, 20, "tc", 3);
            assertThat(support.readAll(topic, Duration.ofSeconds(20))).extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrderElementsOf(ids);
            assertThatThrownBy(() -> kafka.stopBroker(0)).isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
