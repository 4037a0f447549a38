package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.PoisonMarkerDeserializer;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Failures in a share group, with two members: a record that fails on its first two deliveries is routed three times
 * (delivery counts 1, 2, 3, possibly by different members) and then accepted; one that always fails is routed
 * {@code maxDeliveryAttempts} times and then lands in the dead-letter topic with its delivery count; a record that
 * cannot be deserialized is never routed and is dead-lettered. Without a dead-letter topic both are rejected: never
 * delivered again. Every other record is routed once. The health checks are UP and show each task's share counters.
 */
class ShareRedeliveryIT extends ShareITSupport {

    private static final String FAIL_TWICE = "fail-twice";
    private static final String POISON = "always-fails";

    @Test
    void releasedUntilTheLastDeliveryThenDeadLettered() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-redeliver");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        List<String> produced = produce(topic);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(route(recorder, shareUri(topic, group,
                "consumersCount=2&maxPollRecords=5&maxConcurrency=2&maxDeliveryAttempts=4&deadLetterTopic=" + dlt
                                                                                   + "&valueDeserializer="
                                                                                   + PoisonMarkerDeserializer.class
                                                                                           .getName())));
        KafkaFetchShareConsumer consumer = shareConsumer(context);

        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 2, Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(30)).until(() -> recorder.ids().containsAll(produced));
        // settled: everything acknowledged, nothing delivered again
        await().atMost(Duration.ofSeconds(10))
                .until(() -> consumer.shareSnapshots().stream().mapToInt(ShareSnapshot::held).sum() == 0);
        Thread.sleep(1500);
        Map<String, List<Integer>> counts = deliveryCounts(recorder);
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        System.out.printf("share redelivery: deliveries=%s dlt=%d shares=%s%n", counts.get(FAIL_TWICE), letters.size(),
                shares);

        assertThat(counts.get(FAIL_TWICE)).containsExactly(1, 2, 3);
        assertThat(counts.get(POISON)).containsExactly(1, 2, 3, 4);
        assertThat(counts).doesNotContainKey(PoisonMarkerDeserializer.MARKER);
        for (String id : produced) {
            if (!id.equals(FAIL_TWICE) && !id.equals(POISON)) {
                assertThat(counts.get(id)).as(id).containsExactly(1);
            }
        }
        assertThat(letters).hasSize(2);
        ConsumerRecord<String, String> poison = letters.stream().filter(r -> POISON.equals(r.value())).findFirst()
                .orElseThrow();
        assertThat(DeadLetters.header(poison, KafkaFetchShareConstants.DLT_DELIVERY_COUNT)).isEqualTo("4");
        assertThat(DeadLetters.header(poison, KafkaFetchConstants.DLT_ATTEMPTS)).isEqualTo("4");
        assertThat(DeadLetters.header(poison, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");
        assertThat(DeadLetters.header(poison, KafkaFetchConstants.DLT_ORIGINAL_TOPIC)).isEqualTo(topic);
        assertThat(DeadLetters.header(poison, KafkaFetchConstants.DLT_GROUP_ID)).isEqualTo(group);
        ConsumerRecord<String, String> undecodable = letters.stream()
                .filter(r -> PoisonMarkerDeserializer.MARKER.equals(r.value())).findFirst().orElseThrow();
        assertThat(DeadLetters.header(undecodable, KafkaFetchConstants.DLT_REASON)).isEqualTo("deserialization");
        assertThat(sum(shares, ShareSnapshot::deadLettered)).isEqualTo(2);
        assertThat(sum(shares, ShareSnapshot::released)).isEqualTo(2 + 3);
        assertThat(sum(shares, ShareSnapshot::rejected)).isZero();
        assertThat(sum(shares, ShareSnapshot::accepted)).isEqualTo(produced.size() + 1);

        // the health checks show the share tasks and their counters
        HealthCheck.Result[] readiness = new HealthCheck.Result[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            readiness[0] = HealthCheckHelper.invokeReadiness(context).stream()
                    .filter(r -> r.getCheck().getId().equals("consumer:share")).findFirst().orElse(null);
            return readiness[0] != null && readiness[0].getState() == HealthCheck.State.UP;
        });
        HealthCheck.Result liveness = HealthCheckHelper.invokeLiveness(context).stream()
                .filter(r -> r.getCheck().getId().equals("consumer:kafka-fetch-share")).findFirst().orElseThrow();
        assertThat(liveness.getState()).isEqualTo(HealthCheck.State.UP);
        assertThat(readiness[0].getDetails()).containsEntry("group.id", group).containsEntry("task.0.state", "RUNNING")
                .containsEntry("task.1.state", "RUNNING").containsKeys("task.0.share.accepted", "task.1.share.released",
                        "task.0.share.renewed", "task.0.share.delivery.counts", "task.1.share.held");
        long acceptedInDetails = readiness[0].getDetails().entrySet().stream()
                .filter(e -> e.getKey().matches("task\\.\\d+\\.share\\.accepted")).mapToLong(e -> (long) e.getValue())
                .sum();
        assertThat(acceptedInDetails).isEqualTo(produced.size() + 1);
    }

    @Test
    void withoutDeadLetterTopicTheLastFailureIsRejected() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-reject");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        List<String> produced = produce(topic);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(route(recorder, shareUri(topic, group,
                "maxPollRecords=5&maxDeliveryAttempts=2&valueDeserializer=" + PoisonMarkerDeserializer.class
                        .getName())));
        KafkaFetchShareConsumer consumer = shareConsumer(context);

        await().atMost(Duration.ofSeconds(60)).until(() -> recorder.ids().containsAll(produced)
                                                           && sum(consumer.shareSnapshots(),
                                                                   ShareSnapshot::rejected)
                                                              == 3);
        Thread.sleep(2000); // a rejected record is never delivered again
        Map<String, List<Integer>> counts = deliveryCounts(recorder);
        assertThat(counts.get(POISON)).containsExactly(1, 2);
        assertThat(counts.get(FAIL_TWICE)).containsExactly(1, 2);
        assertThat(counts).doesNotContainKey(PoisonMarkerDeserializer.MARKER);
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        assertThat(sum(shares, ShareSnapshot::rejected)).isEqualTo(3);
        assertThat(sum(shares, ShareSnapshot::released)).isEqualTo(2);
        assertThat(sum(shares, ShareSnapshot::accepted)).isEqualTo(produced.size() - 2);
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

    /** 40 plain ids, the two failing ones, and one value the deserializer refuses (not in the returned ids). */
    private static List<String> produce(String topic) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add("id-" + i);
        }
        ids.add(10, FAIL_TWICE);
        ids.add(20, POISON);
        for (String id : ids) {
            kafka.produce(topic, 0, id, id, null);
            if (id.equals("id-30")) {
                kafka.produce(topic, 0, "x", PoisonMarkerDeserializer.MARKER, null);
            }
        }
        return ids;
    }

    private static RouteBuilder route(Recorder recorder, String uri) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("share").process(recorder).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    int delivery = exchange.getMessage().getHeader(KafkaFetchShareConstants.DELIVERY_COUNT,
                            Integer.class);
                    if (POISON.equals(id) || FAIL_TWICE.equals(id) && delivery < 3) {
                        throw new IllegalStateException(id + " fails on delivery " + delivery);
                    }
                });
            }
        };
    }

    /** The delivery counts each id was routed with, in order. */
    private static Map<String, List<Integer>> deliveryCounts(Recorder recorder) {
        return recorder.all().stream().collect(Collectors.groupingBy(Recorder.Seen::id,
                Collectors.mapping(s -> (Integer) s.headers().get(KafkaFetchShareConstants.DELIVERY_COUNT),
                        Collectors.toList())));
    }
}
