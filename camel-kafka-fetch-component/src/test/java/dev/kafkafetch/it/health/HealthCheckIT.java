package dev.kafkafetch.it.health;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.KafkaFetchConsumer;
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
 * The consumer health check, through Camel's health-check API: UP (readiness and liveness) while consuming; readiness
 * DOWN within a bound once the only broker stops, UP again after it restarts (liveness stays UP); DOWN with a clear
 * message for an unreachable host, and with the cause when the client cannot even be created (a bad port); no secret in any detail; the component switch removes the check.
 */
class HealthCheckIT extends KafkaFetchITSupport {

    private static final String SECRET = "s3cr3t-pw";
    private static final String JAAS = "RAW(org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\""
                                       + SECRET + "\";)";

    @Test
    void upForReadinessAndLivenessWhileConsuming() throws Exception {
        String topic = KafkaTestSupport.uniqueName("health-up");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> ids = kafka.produceIds(topic, 50, "h", 5);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // PLAINTEXT: the JAAS config is not used, only carried, so it must not show up anywhere
                from(uri(topic, group, "clientId=health-client&consumersCount=2&saslJaasConfig=" + JAAS))
                        .routeId("health-up").process(recorder);
            }
        });
        awaitCount(recorder, ids.size(), Duration.ofSeconds(60));

        HealthCheck.Result readiness = awaitState(context, "health-up", HealthCheck.Kind.READINESS,
                HealthCheck.State.UP,
                Duration.ofSeconds(30));
        HealthCheck.Result liveness = result(HealthCheckHelper.invokeLiveness(context), "health-up").orElseThrow();
        assertThat(liveness.getState()).isEqualTo(HealthCheck.State.UP);
        assertThat(liveness.getCheck().getId()).isEqualTo("consumer:kafka-fetch-health-up");
        assertThat(liveness.getDetails()).containsEntry("task.0.state", "RUNNING");
        assertThat(readiness.getCheck().getId()).isEqualTo("consumer:health-up");
        // everything at once: Camel's route check wrapping our readiness, and our liveness
        assertThat(HealthCheckHelper.invoke(context)).filteredOn(r -> r.getCheck().getId().contains("health-up"))
                .hasSize(2).allSatisfy(r -> assertThat(r.getState()).isEqualTo(HealthCheck.State.UP));

        Map<String, Object> d = readiness.getDetails();
        assertThat(d).containsEntry("route.id", "health-up").containsEntry("topic", topic)
                .containsEntry("group.id", group).containsEntry("client.id", "health-client-0,health-client-1")
                .containsEntry("task.0.state", "RUNNING").containsEntry("task.1.state", "RUNNING")
                .containsEntry("task.0.client.id", "health-client-0");
        assertNoSecret(readiness);
        assertNoSecret(liveness);
        assertThat(consumer(context, "health-up").getHealthCheck().getId()).isEqualTo("consumer:kafka-fetch-health-up");
    }

    @Test
    void readinessDownWhileTheBrokerIsStoppedAndUpAfterItsRestart() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("health-restart");
            String group = KafkaTestSupport.uniqueName("g");
            own.createTopic(topic, 2);
            List<String> before = own.produceIds(topic, 20, "b", 4);
            Recorder recorder = new Recorder();
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, group, "brokers=" + cluster.bootstrapServers() + "&pollTimeoutMs=500"))
                            .routeId("health-restart").process(recorder);
                }
            });
            awaitCount(recorder, before.size(), Duration.ofSeconds(60));
            awaitState(context, "health-restart", HealthCheck.Kind.READINESS, HealthCheck.State.UP,
                    Duration.ofSeconds(30));

            long stoppedAt = System.nanoTime();
            cluster.stopBroker(0);
            // bound: no connection + 3 s grace + one poll timeout, or sessionTimeoutMs (6 s) + one poll timeout
            HealthCheck.Result down = awaitState(context, "health-restart", HealthCheck.Kind.READINESS,
                    HealthCheck.State.DOWN, Duration.ofSeconds(20));
            long downAfterMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            System.out.println(
                    "Readiness DOWN " + downAfterMs + " ms after the broker stopped: " + down.getMessage().orElse(""));
            assertThat(down.getMessage()).hasValueSatisfying(m -> assertThat(m).contains("cannot reach the brokers at "
                                                                                         + cluster.bootstrapServers()));
            // the task is alive, only not ready
            assertThat(result(HealthCheckHelper.invokeLiveness(context), "health-restart").orElseThrow().getState())
                    .isEqualTo(HealthCheck.State.UP);
            assertThat(downAfterMs).isLessThan(20_000);

            cluster.startBroker(0);
            awaitState(context, "health-restart", HealthCheck.Kind.READINESS, HealthCheck.State.UP,
                    Duration.ofSeconds(60));
            List<String> after = own.produceIds(topic, 20, "a", 4);
            awaitCount(recorder, before.size() + after.size(), Duration.ofSeconds(60));
            assertThat(recorder.lost(after)).isEmpty();
            assertThat(result(HealthCheckHelper.invokeLiveness(context), "health-restart").orElseThrow().getState())
                    .isEqualTo(HealthCheck.State.UP);
            context.stop();
        }
    }

    @Test
    void readinessDownWithAClearMessageForAnUnreachableHost() throws Exception {
        String topic = KafkaTestSupport.uniqueName("health-unreachable");
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, "g-unreachable", "brokers=localhost:1&pollTimeoutMs=500&saslJaasConfig=" + JAAS))
                        .routeId("health-unreachable").log("${body}");
            }
        });
        HealthCheck.Result down = awaitState(context, "health-unreachable", HealthCheck.Kind.READINESS,
                HealthCheck.State.DOWN, Duration.ofSeconds(20));
        System.out.println("Unreachable host: " + down.getMessage().orElse(""));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                result(HealthCheckHelper.invokeReadiness(context), "health-unreachable").orElseThrow().getMessage())
                .hasValueSatisfying(m -> assertThat(m).contains("cannot reach the brokers at localhost:1")));
        assertThat(down.getDetails()).containsEntry("bootstrap.servers", "localhost:1")
                .containsEntry("route.id", "health-unreachable");
        assertNoSecret(down);
        // retrying is not being stuck
        assertThat(result(HealthCheckHelper.invokeLiveness(context), "health-unreachable").orElseThrow().getState())
                .isEqualTo(HealthCheck.State.UP);
    }

    @Test
    void readinessDownNamesWhyTheConsumerCannotBeCreated() throws Exception {
        String topic = KafkaTestSupport.uniqueName("health-bad-port");
        CamelContext context = newContext();
        context.getComponent("kafka-fetch", KafkaFetchComponent.class).setCreateConsumerBackoffInterval(200);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // the client refuses the port when the consumer is created; the task keeps retrying
                from(uri(topic, "g-bad-port", "brokers=localhost:99999&preValidateHostAndPort=false"))
                        .routeId("health-bad-port").log("${body}");
            }
        });
        context.start();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            HealthCheck.Result down = result(HealthCheckHelper.invokeReadiness(context), "health-bad-port")
                    .orElseThrow();
            assertThat(down.getState()).isEqualTo(HealthCheck.State.DOWN);
            // the cause a user can act on, not only "Failed to construct kafka consumer"
            assertThat(down.getMessage()).hasValueSatisfying(m -> assertThat(m)
                    .startsWith("KafkaConsumer is not ready: ").contains("CONNECTING").contains("Invalid port"));
            assertThat(String.valueOf(down.getDetails().get("task.0.last.error"))).contains("Invalid port");
        });
    }

    @Test
    void componentSwitchRemovesTheConsumerCheck() throws Exception {
        String topic = KafkaTestSupport.uniqueName("health-off");
        kafka.createTopic(topic, 1);
        CamelContext context = newContext();
        context.getComponent("kafka-fetch", KafkaFetchComponent.class).setHealthCheckConsumerEnabled(false);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // unreachable: with the check on this would be DOWN
                from(uri(topic, "g-off", "brokers=localhost:1&pollTimeoutMs=500")).routeId("health-off").log("${body}");
            }
        });
        context.start();
        Thread.sleep(1500);
        assertThat(consumer(context, "health-off").getHealthCheck()).isNull();
        Optional<HealthCheck.Result> r = result(HealthCheckHelper.invokeReadiness(context), "health-off");
        // only Camel's own route check remains (route started = UP), without any kafka-fetch detail
        r.ifPresent(res -> {
            assertThat(res.getState()).isEqualTo(HealthCheck.State.UP);
            assertThat(res.getDetails()).doesNotContainKeys("task.0.state", "group.id", "bootstrap.servers");
        });
        assertThat(HealthCheckHelper.invokeReadiness(context))
                .noneMatch(res -> res.getDetails().containsKey("task.0.state"));
        assertThat(HealthCheckHelper.invokeLiveness(context))
                .noneMatch(res -> res.getCheck().getId().startsWith("consumer:kafka-fetch-"));
    }

    // ---- helpers ----

    /** A context with Camel's consumers health-check repository, as camel-main's camel.health.* options set it up. */
    @Override
    protected CamelContext newContext() {
        CamelContext context = super.newContext();
        HealthCheckRegistry registry = HealthCheckRegistry.get(context);
        registry.register(registry.resolveById("consumers"));
        registry.setExposureLevel("full");
        return context;
    }

    private static KafkaFetchConsumer consumer(CamelContext context, String routeId) {
        return (KafkaFetchConsumer) context.getRoute(routeId).getConsumer();
    }

    /**
     * The consumer check of a route: readiness as Camel's consumers repository reports it (id consumer:routeId),
     * liveness as kafka-fetch registers it (id consumer:kafka-fetch-routeId).
     */
    private static Optional<HealthCheck.Result> result(Collection<HealthCheck.Result> results, String routeId) {
        return results.stream().filter(r -> ("consumer:" + routeId).equals(r.getCheck().getId())
                                            || ("consumer:kafka-fetch-" + routeId).equals(r.getCheck().getId()))
                .findFirst();
    }

    private static HealthCheck.Result awaitState(CamelContext context, String routeId, HealthCheck.Kind kind,
                                                 HealthCheck.State state, Duration timeout) {
        HealthCheck.Result[] last = new HealthCheck.Result[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
            Collection<HealthCheck.Result> results = kind == HealthCheck.Kind.READINESS
                    ? HealthCheckHelper.invokeReadiness(context) : HealthCheckHelper.invokeLiveness(context);
            Optional<HealthCheck.Result> r = result(results, routeId);
            r.ifPresent(x -> last[0] = x);
            return r.isPresent() && r.get().getState() == state;
        });
        return last[0];
    }

    private static void assertNoSecret(HealthCheck.Result result) {
        assertThat(result.getMessage().orElse("")).doesNotContain(SECRET);
        for (Map.Entry<String, Object> e : result.getDetails().entrySet()) {
            assertThat(String.valueOf(e.getValue())).as(e.getKey()).doesNotContain(SECRET);
        }
    }
}
