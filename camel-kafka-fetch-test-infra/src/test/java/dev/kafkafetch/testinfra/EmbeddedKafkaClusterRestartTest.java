package dev.kafkafetch.testinfra;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaClusterRestartTest {

    @Test
    void threeBrokersSurviveABrokerRestartWithAReplicatedTopic() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(3);
             KafkaTestSupport kafka = new KafkaTestSupport(cluster.bootstrapServers())) {
            assertThat(cluster.brokerCount()).isEqualTo(3);
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
            String bootstrap = cluster.bootstrapServers();

            String topic = KafkaTestSupport.uniqueName("replicated");
            kafka.createTopic(topic, 3, 3);
            List<String> expected = new ArrayList<>(kafka.produceIds(topic, 100, "before", 10));

            cluster.stopBroker(1);
            assertThat(cluster.isBrokerRunning(1)).isFalse();
            expected.addAll(kafka.produceIds(topic, 100, "during", 10));

            cluster.startBroker(1);
            assertThat(cluster.isBrokerRunning(1)).isTrue();
            assertThat(cluster.bootstrapServers()).isEqualTo(bootstrap);
            assertThat(cluster.testKit().bootstrapServers()).isEqualTo(bootstrap);
            expected.addAll(kafka.produceIds(topic, 100, "after", 10));

            List<ConsumerRecord<String, String>> records = kafka.readAll(topic, Duration.ofSeconds(30));
            assertThat(records).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(expected);

            // the restarted broker is a replica again and every partition has a leader
            Map<String, TopicDescription> d = kafka.admin().describeTopics(List.of(topic)).allTopicNames().get();
            assertThat(d.get(topic).partitions()).allSatisfy(p -> {
                assertThat(p.leader()).isNotNull();
                assertThat(p.replicas()).extracting(n -> n.id()).contains(cluster.brokerId(1));
            });
        }
    }

    @Test
    void singleCombinedNodeRestartKeepsTheBootstrapAddressAndTheFixedPort() throws Exception {
        int port = freePort();
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().fixedPort(port).start();
             KafkaTestSupport viaFixed = new KafkaTestSupport(cluster.bootstrapServers())) {
            assertThat(cluster.brokerCount()).isEqualTo(1);
            assertThat(cluster.bootstrapServers()).isEqualTo("localhost:" + port);
            String randomPortBootstrap = cluster.testKit().bootstrapServers();

            String topic = KafkaTestSupport.uniqueName("restart1");
            viaFixed.createTopic(topic, 2);
            List<String> expected = new ArrayList<>(viaFixed.produceIds(topic, 50, "before", 4));

            cluster.stopBroker(0);
            assertThatThrownBy(() -> cluster.stopBroker(0)).isInstanceOf(IllegalStateException.class);
            cluster.startBroker(0);

            assertThat(cluster.bootstrapServers()).isEqualTo("localhost:" + port);
            assertThat(cluster.testKit().bootstrapServers()).isEqualTo(randomPortBootstrap);
            // the same producer and admin (created before the restart) reconnect to the same address
            expected.addAll(viaFixed.produceIds(topic, 50, "after", 4));
            assertThat(viaFixed.readAll(topic, Duration.ofSeconds(20))).extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrderElementsOf(expected);
            // the test kit's own (random, pre-bound) listener also kept its port
            try (KafkaTestSupport viaRandom = new KafkaTestSupport(randomPortBootstrap)) {
                assertThat(viaRandom.readAll(topic, Duration.ofSeconds(20))).hasSize(100);
            }
        }
    }

    @Test
    void fixedPortNeedsASingleBroker() {
        assertThatThrownBy(() -> EmbeddedKafkaCluster.builder().brokers(3).fixedPort(19092).start())
                .isInstanceOf(IllegalStateException.class);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
