package dev.kafkafetch.it.config;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.it.TeeStream;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.KafkaFetchRecords;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.util.URISupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Security options against a dedicated embedded cluster whose client listener is SASL_PLAINTEXT (PLAIN and SCRAM):
 * the right credentials consume every record, through the saslAuthType shorthand or an explicit saslJaasConfig;
 * wrong credentials make readiness DOWN with an authentication message, stop the task instead of retrying, and
 * leave no trace of the password or JAAS line in the endpoint URI, the health results or the log output.
 */
class SecurityIT {

    private static final String ALICE_PASSWORD = "alice-Pw-5e1d";
    private static final String CAROL_PASSWORD = "carol-Pw-77b2";
    private static final String WRONG_PASSWORD = "wrong-Pw-3c9a";
    private static final String WRONG_JAAS_PASSWORD = "jaas-wrong-Pw-81f4";
    private static final String WRONG_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
                                             + " username=\"alice\" password=\"" + WRONG_JAAS_PASSWORD + "\";";

    private static EmbeddedKafkaCluster cluster;
    private static KafkaTestSupport kafka;
    private final List<CamelContext> contexts = new ArrayList<>();

    @BeforeAll
    static void startSaslCluster() {
        cluster = EmbeddedKafkaCluster.builder()
                .saslPlain(Map.of("alice", ALICE_PASSWORD))
                .saslScram(Map.of("carol", CAROL_PASSWORD))
                .start();
        kafka = new KafkaTestSupport(cluster);
    }

    @AfterAll
    static void stopSaslCluster() {
        if (kafka != null) {
            kafka.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void stopContexts() {
        contexts.forEach(CamelContext::stop);
        contexts.clear();
    }

    @Test
    void plainShorthandConsumesEveryRecord() throws Exception {
        consumesEveryRecord("sasl-plain", "saslAuthType=PLAIN&securityProtocol=SASL_PLAINTEXT&saslUsername=alice"
                                          + "&saslPassword=RAW(" + ALICE_PASSWORD + ")");
    }

    @Test
    void explicitJaasConfigConsumesEveryRecord() throws Exception {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\""
                      + ALICE_PASSWORD + "\";";
        consumesEveryRecord("sasl-jaas",
                "securityProtocol=SASL_PLAINTEXT&saslMechanism=PLAIN&saslJaasConfig=RAW(" + jaas + ")");
    }

    @Test
    void scramShorthandConsumesEveryRecord() throws Exception {
        consumesEveryRecord("sasl-scram",
                "saslAuthType=SCRAM_SHA_512&securityProtocol=SASL_PLAINTEXT&saslUsername=carol"
                                          + "&saslPassword=RAW(" + CAROL_PASSWORD + ")");
    }

    @Test
    void wrongCredentialsStopTheTaskWithReadinessDownAndLeakNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("sasl-wrong");
        kafka.createTopic(topic, 2);
        kafka.produceIds(topic, 5, "w", 2);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        PrintStream originalOut = System.out;
        System.setErr(TeeStream.tee(originalErr, captured));
        System.setOut(TeeStream.tee(originalOut, captured));
        CamelContext context;
        long startedAt = System.nanoTime();
        try {
            context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, "saslAuthType=PLAIN&securityProtocol=SASL_PLAINTEXT&saslUsername=alice"
                                    + "&saslPassword=RAW(" + WRONG_PASSWORD + ")"))
                            .routeId("wrong-shorthand").log("${body}");
                    from(uri(topic, "securityProtocol=SASL_PLAINTEXT&saslMechanism=PLAIN&saslJaasConfig=RAW("
                                    + WRONG_JAAS + ")"))
                            .routeId("wrong-jaas").log("${body}");
                }
            });
            for (String routeId : List.of("wrong-shorthand", "wrong-jaas")) {
                // (right after the start it may be DOWN for "no response yet"; it must settle on the authentication error)
                HealthCheck.Result down = awaitReadiness(context, routeId, r -> r.getState() == HealthCheck.State.DOWN
                                                                                && r.getMessage().orElse("")
                                                                                        .toLowerCase(Locale.ROOT)
                                                                                        .contains("authentication"),
                        Duration.ofSeconds(30));
                System.out.println("Readiness of " + routeId + " DOWN with an authentication message after "
                                   + (System.nanoTime() - startedAt) / 1_000_000 + " ms: "
                                   + down.getMessage().orElse(""));
            }
            // no tight retry loop: the task gave up at the first authentication error
            for (String routeId : List.of("wrong-shorthand", "wrong-jaas")) {
                KafkaFetchRecords task = consumer(context, routeId).tasks().get(0);
                await().atMost(Duration.ofSeconds(10)).until(() -> task.state() == TaskState.TERMINATED);
            }
            long[] pollsBefore = polls(context);
            Thread.sleep(3000);
            long[] pollsAfter = polls(context);
            assertThat(pollsAfter).isEqualTo(pollsBefore);
            for (String routeId : List.of("wrong-shorthand", "wrong-jaas")) {
                TaskSnapshot snap = consumer(context, routeId).tasks().get(0).snapshot();
                assertThat(snap.polls()).as("polls of %s", routeId).isLessThanOrEqualTo(5);
                assertThat(snap.reconnects()).isZero();
                assertThat(snap.lastError()).containsIgnoringCase("authentication");
                assertThat(consumer(context, routeId).tasks().get(0).state()).isEqualTo(TaskState.TERMINATED);

                HealthCheck.Result readiness = result(HealthCheckHelper.invokeReadiness(context), routeId)
                        .orElseThrow();
                HealthCheck.Result liveness = result(HealthCheckHelper.invokeLiveness(context), routeId).orElseThrow();
                assertThat(readiness.getState()).isEqualTo(HealthCheck.State.DOWN);
                assertThat(liveness.getState()).isEqualTo(HealthCheck.State.DOWN);
                assertNoSecret(routeId + " readiness", describe(readiness));
                assertNoSecret(routeId + " liveness", describe(liveness));

                Endpoint endpoint = context.getRoute(routeId).getEndpoint();
                assertNoSecret(routeId + " sanitized endpoint URI", URISupport.sanitizeUri(endpoint.getEndpointUri()));
                assertNoSecret(routeId + " endpoint", endpoint.toString());
                assertNoSecret(routeId + " route", context.getRoute(routeId).toString());
            }
            for (Endpoint endpoint : context.getEndpoints()) {
                assertNoSecret("endpoint", endpoint.toString());
            }
            context.stop();
        } finally {
            System.out.flush();
            System.err.flush();
            System.setErr(originalErr);
            System.setOut(originalOut);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        // the capture works: the task's own stop message and Kafka's authentication error are in it
        assertThat(log).contains("the task stops").containsIgnoringCase("authentication failed");
        assertNoSecret("captured log output", log);
    }

    // ---- helpers ----

    private void consumesEveryRecord(String name, String security) throws Exception {
        String topic = KafkaTestSupport.uniqueName(name);
        kafka.createTopic(topic, 3);
        List<String> ids = kafka.produceIds(topic, 60, name, 6);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, security)).routeId(name).process(recorder);
            }
        });
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> recorder.ids().size() >= ids.size());
        assertThat(recorder.lost(ids)).isEmpty();
        awaitReadiness(context, name, r -> r.getState() == HealthCheck.State.UP, Duration.ofSeconds(30));
        assertThat(consumer(context, name).tasks().get(0).snapshot().lastError()).isNull();
    }

    private static String uri(String topic, String security) {
        return "kafka-fetch:" + topic + "?brokers=" + cluster.bootstrapServers() + "&groupId="
               + KafkaTestSupport.uniqueName("g") + "&autoOffsetReset=earliest&autoCommitIntervalMs=200"
               + "&sessionTimeoutMs=6000&heartbeatIntervalMs=500&pollTimeoutMs=500&" + security;
    }

    /** A context with Camel's consumers health-check repository, as camel-main's camel.health.* options set it up. */
    private CamelContext startContext(RouteBuilder routes) throws Exception {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(30);
        contexts.add(context);
        HealthCheckRegistry registry = HealthCheckRegistry.get(context);
        registry.register(registry.resolveById("consumers"));
        registry.setExposureLevel("full");
        context.addRoutes(routes);
        context.start();
        return context;
    }

    private static KafkaFetchConsumer consumer(CamelContext context, String routeId) {
        return (KafkaFetchConsumer) context.getRoute(routeId).getConsumer();
    }

    private static long[] polls(CamelContext context) {
        return context.getRoutes().stream()
                .flatMap(r -> ((KafkaFetchConsumer) r.getConsumer()).tasks().stream())
                .mapToLong(t -> t.snapshot().polls()).toArray();
    }

    private static Optional<HealthCheck.Result> result(Collection<HealthCheck.Result> results, String routeId) {
        return results.stream().filter(r -> ("consumer:" + routeId).equals(r.getCheck().getId())
                                            || ("consumer:kafka-fetch-" + routeId).equals(r.getCheck().getId()))
                .findFirst();
    }

    private static HealthCheck.Result awaitReadiness(CamelContext context, String routeId,
                                                     Predicate<HealthCheck.Result> condition, Duration timeout) {
        HealthCheck.Result[] last = new HealthCheck.Result[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
            Optional<HealthCheck.Result> r = result(HealthCheckHelper.invokeReadiness(context), routeId);
            r.ifPresent(x -> last[0] = x);
            return r.isPresent() && condition.test(r.get());
        });
        return last[0];
    }

    private static String describe(HealthCheck.Result result) {
        return result.getMessage().orElse("") + " " + result.getDetails()
               + result.getError().map(e -> " " + e).orElse("");
    }

    private static void assertNoSecret(String where, String text) {
        assertThat(text).as(where)
                .doesNotContain(WRONG_PASSWORD)
                .doesNotContain(WRONG_JAAS_PASSWORD)
                .doesNotContain(ALICE_PASSWORD)
                .doesNotContain(CAROL_PASSWORD)
                .doesNotContain("PlainLoginModule");
    }
}
