package dev.kafkafetch.it.health;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readiness with the context's own health-check registry, nothing registered by the application (what camel-kafka's
 * own health test ends up with: its registry fixture is private, so Camel's test infrastructure never calls it). As
 * camel-kafka's consumer does, starting the route brings the {@code consumers} repository in, so readiness reports the
 * consumer: UP while it reads, DOWN with camel-kafka's message once the broker stops.
 */
class DefaultHealthRegistryIT extends KafkaFetchITSupport {

    @Test
    void readinessReportsTheConsumerWithoutAnApplicationRegistry() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("default-health");
            Recorder recorder = new Recorder();
            CamelContext context = newContext();
            HealthCheckRegistry registry = HealthCheckRegistry.get(context);
            assertThat(registry).as("the context's own registry").isNotNull();
            assertThat(registry.getRepository("consumers")).as("no consumers repository before the start").isEmpty();
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("kafka-fetch:" + topic + "?brokers=" + cluster.bootstrapServers() + "&groupId="
                         + KafkaTestSupport.uniqueName("g") + "&autoOffsetReset=earliest&pollTimeoutMs=1000")
                            .routeId("default-health").process(recorder);
                }
            });
            context.start();
            List<String> produced = own.produceIds(topic, 5, "d", 1);
            awaitCount(recorder, produced.size(), Duration.ofSeconds(30));
            assertThat(HealthCheckHelper.invokeReadiness(context)).as("readiness after the records were read")
                    .anyMatch(r -> r.getCheck().getId().contains("default-health"))
                    .allMatch(r -> r.getState() == HealthCheck.State.UP);

            cluster.stopBroker(0);
            Collection<HealthCheck.Result>[] last = new Collection[1];
            try {
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    last[0] = HealthCheckHelper.invokeReadiness(context);
                    return last[0].stream().anyMatch(r -> r.getState() == HealthCheck.State.DOWN);
                });
            } catch (RuntimeException e) {
                throw new AssertionError("readiness never DOWN; last results: " + last[0], e);
            }
            Optional<HealthCheck.Result> down = last[0].stream().filter(r -> r.getState() == HealthCheck.State.DOWN)
                    .findFirst();
            assertThat(down.get().getMessage()).hasValueSatisfying(m -> assertThat(m).contains(
                    "KafkaConsumer is not ready"));
            assertThat(down.get().getDetails()).containsEntry("topic", topic).containsEntry("route.id",
                    "default-health");
            context.stop();
        }
    }
}
