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
import org.apache.camel.impl.health.DefaultHealthCheckRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readiness with a health-check registry the application creates itself (as camel-kafka's own health tests do): a
 * {@link DefaultHealthCheckRegistry} with the {@code context}, {@code routes} and {@code consumers} checks resolved by
 * id, set as the context's plugin before it starts. After the broker stops, liveness stays UP and readiness turns
 * DOWN with camel-kafka's message and the {@code topic} and {@code route.id} details.
 */
class AppHealthRegistryIT extends KafkaFetchITSupport {

    @Test
    void readinessIsDownAfterTheBrokerStops() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            // as camel-kafka's health test: the topic is created by the first record, after the route started
            String topic = KafkaTestSupport.uniqueName("app-health");
            Recorder recorder = new Recorder();
            CamelContext context = newContext();
            HealthCheckRegistry registry = new DefaultHealthCheckRegistry();
            registry.setCamelContext(context);
            for (String id : new String[] { "context", "routes", "consumers" }) {
                registry.register(registry.resolveById(id));
            }
            context.getCamelContextExtension().addContextPlugin(HealthCheckRegistry.class, registry);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("kafka-fetch:" + topic + "?brokers=" + cluster.bootstrapServers() + "&groupId="
                         + KafkaTestSupport.uniqueName("g") + "&autoOffsetReset=earliest"
                         + "&keyDeserializer=org.apache.kafka.common.serialization.StringDeserializer"
                         + "&valueDeserializer=org.apache.kafka.common.serialization.StringDeserializer"
                         + "&autoCommitIntervalMs=1000&pollTimeoutMs=1000&autoCommitEnable=true")
                            .routeId("app-health").process(recorder);
                }
            });
            context.start();
            assertThat(HealthCheckHelper.invokeLiveness(context)).allMatch(r -> r.getState() == HealthCheck.State.UP);
            await().atMost(Duration.ofSeconds(20)).until(
                    () -> HealthCheckHelper.invokeReadiness(context).stream()
                            .allMatch(r -> r.getState() == HealthCheck.State.UP));
            List<String> produced = own.produceIds(topic, 5, "h", 1);
            awaitCount(recorder, produced.size(), Duration.ofSeconds(30));

            cluster.stopBroker(0);
            assertThat(HealthCheckHelper.invokeLiveness(context))
                    .allMatch(r -> r.getState() == HealthCheck.State.UP);
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
            assertThat(down.get().getDetails()).containsEntry("topic", topic).containsEntry("route.id", "app-health");
            context.stop();
        }
    }
}
