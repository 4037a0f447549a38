package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead letter the broker always rejects (the dead-letter topic's {@code max.message.bytes} is smaller than the
 * record: RecordTooLargeException) is not retried forever behind a healthy face: the route's readiness check goes
 * DOWN naming the dead-letter topic, the task's last error says why, and the failed record is never committed past;
 * with {@code pollOnError=STOP} the task terminates.
 */
class RejectedDeadLetterIT extends KafkaFetchITSupport {

    private static final long BIG_OFFSET = 5;

    @Test
    void readinessGoesDownNamingTheDeadLetterTopic() throws Exception {
        Setup s = setup("");
        await().atMost(Duration.ofSeconds(25)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            HealthCheck.Result r = readiness(s.context()).orElseThrow(() -> new AssertionError("no readiness check"));
            assertThat(r.getState()).as("readiness of route r (message %s)", r.getMessage().orElse(""))
                    .isEqualTo(HealthCheck.State.DOWN);
            assertThat(r.getMessage()).hasValueSatisfying(m -> assertThat(m).contains(s.dlt()));
        });
        assertLastErrorSaysWhy(s.consumer());
        assertNotCommittedPastTheFailedRecord(s);
    }

    @Test
    void taskTerminatesWithPollOnErrorStop() throws Exception {
        Setup s = setup("&pollOnError=STOP");
        await().atMost(Duration.ofSeconds(25)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(
                s.consumer().taskSnapshots().get(0).state()).as("task state").isEqualTo("TERMINATED"));
        assertLastErrorSaysWhy(s.consumer());
        assertNotCommittedPastTheFailedRecord(s);
    }

    private record Setup(String topic, String dlt, String group, CamelContext context, KafkaFetchConsumer consumer) {
    }

    private Setup setup(String extra) throws Exception {
        String topic = KafkaTestSupport.uniqueName("dlt-reject");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.admin().createTopics(List.of(new NewTopic(dlt, 1, (short) 1).configs(Map.of("max.message.bytes", "200"))))
                .all().get(30, TimeUnit.SECONDS);
        kafka.produceIds(topic, (int) BIG_OFFSET, "a", 1);
        kafka.produce(topic, 0, "big", "big-" + "x".repeat(2048), null); // offset 5
        kafka.produceIds(topic, 5, "b", 1);
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // short stop and revoke waits: today's code waits for the never-acknowledged dead letter in both
                from(uri(topic, group, "shutdownTimeout=5000&revokeTimeoutMs=2000&deadLetterTopic=" + dlt + extra))
                        .routeId("r")
                        .process(e -> {
                            if (e.getMessage().getBody(String.class).startsWith("big-")) {
                                throw new IllegalStateException("cannot handle the big record");
                            }
                        });
            }
        });
        return new Setup(topic, dlt, group, context, (KafkaFetchConsumer) context.getRoute("r").getConsumer());
    }

    private static void assertLastErrorSaysWhy(KafkaFetchConsumer consumer) {
        assertThat(consumer.taskSnapshots().get(0).lastError()).as("last error").isNotNull()
                .satisfiesAnyOf(e -> assertThat(e).contains("RecordTooLarge"),
                        e -> assertThat(e).containsIgnoringCase("larger than the max message size"));
    }

    private static void assertNotCommittedPastTheFailedRecord(Setup s) {
        Long committed = kafka.committedOffsets(s.group(), s.topic()).get(new TopicPartition(s.topic(), 0));
        assertThat(committed == null ? 0L : committed).as("committed offset (the failed record is at %d)", BIG_OFFSET)
                .isLessThanOrEqualTo(BIG_OFFSET);
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

    private static Optional<HealthCheck.Result> readiness(CamelContext context) {
        return HealthCheckHelper.invokeReadiness(context).stream()
                .filter(r -> "consumer:r".equals(r.getCheck().getId())).findFirst();
    }
}
