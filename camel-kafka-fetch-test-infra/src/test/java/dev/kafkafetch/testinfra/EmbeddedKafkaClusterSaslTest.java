package dev.kafkafetch.testinfra;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster with a SASL_PLAINTEXT client listener: PLAIN and SCRAM users authenticate, wrong passwords and plaintext
 * clients are refused, and the listener keeps its address across a broker restart (two brokers, so the per-broker
 * listeners of separate broker and controller nodes are covered too).
 */
class EmbeddedKafkaClusterSaslTest {

    @Test
    void plainAndScramUsersAuthenticateAndTheListenerSurvivesARestart() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().brokers(2)
                .saslPlain(Map.of("alice", "alice-secret"))
                .saslScram(Map.of("bob", "bob \"quoted\" secret"))
                .start();
             KafkaTestSupport kafka = new KafkaTestSupport(cluster)) {
            assertThat(cluster.isSasl()).isTrue();
            assertThat(cluster.saslMechanisms()).containsExactly("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");
            assertThat(cluster.bootstrapServers().split(",")).hasSize(2);
            assertThat(cluster.bootstrapServers()).isNotEqualTo(cluster.plaintextBootstrapServers());
            assertThat(cluster.clientProperties()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                    .containsEntry("sasl.mechanism", "PLAIN");
            String bootstrap = cluster.bootstrapServers();

            String topic = KafkaTestSupport.uniqueName("sasl");
            kafka.createTopic(topic, 2, 2);
            List<String> ids = kafka.produceIds(topic, 20, "a", 4);

            for (String mechanism : EmbeddedKafkaCluster.SCRAM_MECHANISMS) {
                try (KafkaTestSupport scram = new KafkaTestSupport(bootstrap,
                        EmbeddedKafkaCluster.clientProperties("bob", "bob \"quoted\" secret", mechanism))) {
                    assertThat(scram.readAll(topic, Duration.ofSeconds(30))).extracting(ConsumerRecord::value)
                            .containsExactlyInAnyOrderElementsOf(ids);
                }
            }
            try (KafkaTestSupport wrong = new KafkaTestSupport(bootstrap,
                    EmbeddedKafkaCluster.clientProperties("alice", "not-her-password", "PLAIN"))) {
                assertThatThrownBy(() -> wrong.endOffsets(topic))
                        .hasRootCauseInstanceOf(SaslAuthenticationException.class);
            }

            cluster.stopBroker(1);
            cluster.startBroker(1);
            assertThat(cluster.bootstrapServers()).isEqualTo(bootstrap);
            List<String> after = kafka.produceIds(topic, 20, "b", 4);
            assertThat(kafka.readAll(topic, Duration.ofSeconds(30))).hasSize(ids.size() + after.size());
        }
    }
}
