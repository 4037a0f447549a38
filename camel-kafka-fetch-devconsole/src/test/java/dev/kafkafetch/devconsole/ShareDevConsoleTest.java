package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.util.json.JsonObject;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A kafka-fetch-share route beside a kafka-fetch one: the console lists both, and each share task shows its
 * share-group counters (held, acquired, accepted, released, rejected, renewed, delivery counts) in text and JSON.
 */
class ShareDevConsoleTest extends DevConsoleTestSupport {

    @Test
    void showsShareTasksAndTheirCounters() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-share");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        kafka.admin().incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
        kafka.produceIds(topic, 30, "s", 5);
        String failing = "id-s-7";
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("kafka-fetch-share:" + topic + "?brokers=" + KAFKA.bootstrapServers() + "&groupId=" + group
                     + "&consumersCount=2&maxPollRecords=5&maxDeliveryAttempts=2&pollTimeoutMs=500")
                        .routeId("shared").process(e -> {
                            if (failing.equals(e.getMessage().getBody(String.class))) {
                                throw new IllegalStateException("boom");
                            }
                        });
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).routeId("classic").log("${body}");
            }
        });
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonObject route = route(json(context, Map.of()), "shared");
            return shareSum(route, "accepted") == 29 && shareSum(route, "rejected") == 1;
        });
        JsonObject json = json(context, Map.of());
        JsonObject shared = route(json, "shared");
        assertThat(shared.getString("scheme")).isEqualTo("kafka-fetch-share");
        assertThat(route(json, "classic").getString("scheme")).isEqualTo("kafka-fetch");
        // two windows of two share consumers each (the default consumersPerWindow): four tasks
        assertThat(tasks(shared)).hasSize(4).allSatisfy(t -> {
            assertThat(t.getString("state")).isEqualTo("RUNNING");
            assertThat(partitions(t)).isEmpty();
            JsonObject share = t.getMap("share");
            assertThat(share.getString("groupId")).isEqualTo(group);
            assertThat(share.getInteger("maxDeliveryAttempts")).isEqualTo(2);
            assertThat(share.getInteger("deliveryCountLimit")).isEqualTo(5);
            assertThat(share).containsKeys("held", "acquired", "released", "renewed", "lockLost",
                    "acknowledgementFailures", "deliveryCounts", "lockDurationMs");
        });
        assertThat(shareSum(shared, "released")).isEqualTo(1);
        assertThat(shareSum(shared, "acquired")).isEqualTo(31); // the failing record twice
        assertThat(tasks(route(json, "classic")).get(0).containsKey("share")).isFalse();

        String text = text(context, Map.of("routeId", "shared"));
        assertThat(text).contains("Route: shared", "Share group: held 0", "final on delivery 2 (group limit 5)")
                .doesNotContain("Route: classic", "Partitions:");
    }

    private static long shareSum(JsonObject route, String counter) {
        return tasks(route).stream().mapToLong(t -> ((JsonObject) t.getMap("share")).getLong(counter)).sum();
    }
}
