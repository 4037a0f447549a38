package dev.kafkafetch.it.health;

import java.time.Duration;
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
 * Readiness as camel-kafka users read it, with camel-kafka's default timings (pollTimeoutMs 5 s, heartbeat 3 s,
 * session 45 s): while consuming it is UP with the details {@code topic} and {@code route.id}; a stopped broker turns it
 * DOWN soon after its shutdown (camel-kafka takes under 5 s; asserted with a wide margin, well below the 45 s
 * session), the details still naming topic and route; after the
 * broker's restart it is UP again and records produced meanwhile are all consumed.
 */
class ReadinessOnBrokerStopIT extends KafkaFetchITSupport {

    @Test
    void downSoonAfterTheBrokerStopsAndUpAfterItsRestart() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("ready");
            own.createTopic(topic, 2);
            List<String> before = own.produceIds(topic, 20, "b", 4);
            Recorder recorder = new Recorder();
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("kafka-fetch:" + topic + "?brokers=" + cluster.bootstrapServers() + "&groupId="
                         + KafkaTestSupport.uniqueName("g") + "&autoOffsetReset=earliest").routeId("ready")
                            .process(recorder);
                }
            });
            awaitCount(recorder, before.size(), Duration.ofSeconds(60));
            HealthCheck.Result up = awaitReadiness(context, HealthCheck.State.UP, Duration.ofSeconds(30));
            assertThat(up.getDetails()).containsEntry("topic", topic).containsEntry("route.id", "ready");

            long stopping = System.nanoTime();
            cluster.stopBroker(0); // returns once the broker has shut down
            long stoppedAt = System.nanoTime();
            HealthCheck.Result down = awaitReadiness(context, HealthCheck.State.DOWN, Duration.ofSeconds(40));
            long downAfterMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            System.out.println("Readiness DOWN " + downAfterMs + " ms after the broker stopped (its shutdown took "
                               + (stoppedAt - stopping) / 1_000_000 + " ms)");
            // measured from the end of the broker's shutdown, with a wide margin for 2 loaded cores: well before the
            // 45 s session timeout, i.e. readiness follows the lost connection, not the group
            assertThat(downAfterMs).isLessThan(15_000);
            assertThat(down.getDetails()).containsEntry("topic", topic).containsEntry("route.id", "ready");

            cluster.startBroker(0);
            awaitReadiness(context, HealthCheck.State.UP, Duration.ofSeconds(60));
            List<String> after = own.produceIds(topic, 20, "a", 4);
            awaitCount(recorder, before.size() + after.size(), Duration.ofSeconds(60));
            assertThat(recorder.lost(after)).isEmpty();
            context.stop();
        }
    }

    /** A context with Camel's consumers health-check repository, as camel-main's camel.health.* options set it up. */
    @Override
    protected CamelContext newContext() {
        CamelContext context = super.newContext();
        HealthCheckRegistry registry = HealthCheckRegistry.get(context);
        registry.register(registry.resolveById("consumers"));
        registry.setExposureLevel("full");
        return context;
    }

    private static HealthCheck.Result awaitReadiness(CamelContext context, HealthCheck.State state,
                                                     Duration timeout) {
        HealthCheck.Result[] last = new HealthCheck.Result[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
            Optional<HealthCheck.Result> r = HealthCheckHelper.invokeReadiness(context).stream()
                    .filter(x -> "consumer:ready".equals(x.getCheck().getId())).findFirst();
            r.ifPresent(x -> last[0] = x);
            return r.isPresent() && r.get().getState() == state;
        });
        return last[0];
    }
}
