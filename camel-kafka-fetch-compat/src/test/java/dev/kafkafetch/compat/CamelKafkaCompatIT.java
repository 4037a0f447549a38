package dev.kafkafetch.compat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;
import org.apache.camel.component.kafka.consumer.errorhandler.KafkaConsumerListener;
import org.apache.camel.component.kafka.serde.DefaultKafkaHeaderDeserializer;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With camel-kafka-fetch-compat on the classpath, route code written against camel-kafka's types runs on kafka-fetch:
 * the manual-commit header read as camel-kafka's {@code KafkaManualCommit} commits (never past unfinished work); a
 * camel-kafka manual-commit factory and a subclass of its {@code DefaultKafkaHeaderDeserializer} work as options; and
 * camel-kafka's {@code KafkaConsumerListener} drives the Pausable EIP (pause after a failure, resume on the check),
 * nothing lost.
 */
class CamelKafkaCompatIT {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();
    private static KafkaTestSupport kafka;
    private final List<CamelContext> contexts = new ArrayList<>();

    @BeforeAll
    static void connect() {
        kafka = new KafkaTestSupport(KAFKA.bootstrapServers());
    }

    @AfterAll
    static void disconnect() {
        kafka.close();
    }

    @AfterEach
    void stopContexts() {
        contexts.forEach(CamelContext::stop);
    }

    @Test
    void camelKafkasManualCommitTypeCommits() throws Exception {
        String topic = KafkaTestSupport.uniqueName("compat");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 100, "m", 10);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        start(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "allowManualCommit=true&autoCommitEnable=false&maxConcurrency=4&ordering=KEY"))
                        .process(e -> {
                            KafkaManualCommit manual = e.getMessage().getHeader(KafkaConstants.MANUAL_COMMIT,
                                    KafkaManualCommit.class);
                            manual.commit();
                            seen.add(e.getMessage().getBody(String.class));
                        });
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.containsAll(produced));
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> kafka.committedOffsets(group, topic).equals(end));
    }

    @Test
    void camelKafkasFactoryAndHeaderDeserializerSubclassWorkAsOptions() throws Exception {
        String topic = KafkaTestSupport.uniqueName("compat");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        for (int i = 0; i < 20; i++) {
            kafka.produce(topic, 0, null, "v-" + i, Map.of("trace", ("t-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        Map<String, Object> traces = new ConcurrentHashMap<>();
        CamelContext context = newContext();
        context.getRegistry().bind("upper", new UpperCaseHeaders());
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "allowManualCommit=true&autoCommitEnable=false&headerDeserializer=#upper"
                                       + "&kafkaManualCommitFactory=#class:"
                                       + "org.apache.camel.component.kafka.consumer.DefaultKafkaManualCommitFactory"))
                        .process(e -> {
                            traces.put(e.getMessage().getBody(String.class), e.getMessage().getHeader("trace"));
                            e.getMessage().getHeader(KafkaConstants.MANUAL_COMMIT, KafkaManualCommit.class).commit();
                        });
            }
        });
        context.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> traces.size() == 20);
        assertThat(traces).containsEntry("v-3", "T-3").containsEntry("v-19", "T-19");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Long.valueOf(20).equals(kafka.committedOffsets(group, topic).get(
                        new TopicPartition(topic, 0))));
    }

    @Test
    void camelKafkasConsumerListenerPausesAfterAFailureAndResumesOnTheCheck() throws Exception {
        String topic = KafkaTestSupport.uniqueName("compat");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 50, "p", 1);
        AtomicBoolean serviceDown = new AtomicBoolean(true);
        Set<String> done = ConcurrentHashMap.newKeySet();
        CamelContext context = start(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).routeId("r")
                        .pausable(new KafkaConsumerListener(), o -> !serviceDown.get())
                        .process(e -> {
                            String body = e.getMessage().getBody(String.class);
                            if (body.equals("id-p-10") && serviceDown.get()) {
                                throw new IllegalStateException("service unavailable");
                            }
                            done.add(body);
                        });
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAUSED".equals(consumer.taskSnapshots().get(0).state()));
        assertThat(done).doesNotContain("id-p-10");
        serviceDown.set(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsAll(produced));
    }

    /** A camel-kafka header deserializer subclass, as existing camel-kafka routes have them. */
    public static class UpperCaseHeaders extends DefaultKafkaHeaderDeserializer {
        @Override
        public Object deserialize(String key, byte[] value) {
            return new String(value, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
        }
    }

    private CamelContext start(RouteBuilder routes) throws Exception {
        CamelContext context = newContext();
        context.addRoutes(routes);
        context.start();
        return context;
    }

    private CamelContext newContext() {
        CamelContext context = new DefaultCamelContext();
        contexts.add(context);
        return context;
    }

    private static String uri(String topic, String group, String extra) {
        return "kafka-fetch:" + topic + "?brokers=" + KAFKA.bootstrapServers() + "&groupId=" + group
               + "&autoOffsetReset=earliest&autoCommitIntervalMs=200&sessionTimeoutMs=6000&heartbeatIntervalMs=500"
               + (extra.isEmpty() ? "" : "&" + extra);
    }
}
