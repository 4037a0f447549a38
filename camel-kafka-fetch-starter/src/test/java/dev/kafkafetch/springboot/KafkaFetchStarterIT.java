package dev.kafkafetch.springboot;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.KafkaFetchEndpoint;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application with the starter: the route names only its topic, and the brokers, group, offset reset,
 * SASL/PLAIN security and concurrency come from {@code application.properties} (camel.component.kafka-fetch.*). It
 * consumes every record from an embedded broker whose only client listener requires SASL, and commits them for the
 * configured group.
 */
@SpringBootTest(classes = KafkaFetchStarterIT.App.class)
class KafkaFetchStarterIT {

    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport kafka;
    private static List<String> produced;

    @Autowired
    private CamelContext camelContext;
    @Autowired
    private Set<String> received;

    @BeforeAll
    static void broker() {
        cluster = EmbeddedKafkaCluster.builder().saslPlain(Map.of("app", "app-secret")).start();
        System.setProperty("test.kafka.brokers", cluster.bootstrapServers());
        kafka = new KafkaTestSupport(cluster.plaintextBootstrapServers());
        kafka.createTopic("starter-orders", 2);
        produced = kafka.produceIds("starter-orders", 200, "sb", 10);
    }

    @AfterAll
    static void stopBroker() {
        System.clearProperty("test.kafka.brokers");
        if (kafka != null) {
            kafka.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void routeConfiguredOnlyByApplicationPropertiesConsumesOverSasl() {
        KafkaFetchComponent component = camelContext.getComponent("kafka-fetch", KafkaFetchComponent.class);
        assertThat(component.getConfiguration().getBrokers()).isEqualTo(cluster.bootstrapServers());
        assertThat(component.getConfiguration().getGroupId()).isEqualTo("starter-app");
        assertThat(component.getConfiguration().getMaxConcurrency()).isEqualTo(4);
        assertThat(component.getConfiguration().getOrdering()).isEqualTo(Ordering.KEY);
        KafkaFetchEndpoint endpoint = (KafkaFetchEndpoint) camelContext.getRoute("starter").getEndpoint();
        assertThat(endpoint.getEndpointUri()).isEqualTo("kafka-fetch://starter-orders");
        assertThat(endpoint.taskSettings().properties()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "PLAIN");

        await().atMost(Duration.ofSeconds(60)).until(() -> received.containsAll(produced));
        Map<TopicPartition, Long> end = kafka.endOffsets("starter-orders");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> kafka.committedOffsets("starter-app", "starter-orders").equals(end));
    }

    @SpringBootApplication
    static class App {
        @Bean
        Set<String> received() {
            return ConcurrentHashMap.newKeySet();
        }

        @Bean
        RouteBuilder route(Set<String> received) {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("kafka-fetch:{{test.topic}}").routeId("starter")
                            .process(e -> received.add(e.getMessage().getBody(String.class)));
                }
            };
        }
    }
}
