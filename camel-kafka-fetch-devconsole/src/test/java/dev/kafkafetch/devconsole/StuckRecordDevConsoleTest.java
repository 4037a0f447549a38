package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.util.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "What is it stuck on": the console names each partition's oldest unfinished record (offset, key, attempt, state,
 * age, thread and its state, with ordering=KEY the records behind it in its lane), in text and JSON, and shows a
 * partition an operator paused.
 */
class StuckRecordDevConsoleTest extends DevConsoleTestSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseStuckThread() {
        release.countDown();
    }

    @Test
    void showsTheOldestUnfinishedRecordAndTheRecordsBehindItInItsKeyLane() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-stuck");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.produceIds(topic, 20, "s", 1); // one key: every record waits behind the first one
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "ordering=KEY&maxConcurrency=4&operatorActions=true")).routeId("stuck")
                        .process(e -> {
                            if ("id-s-0".equals(e.getMessage().getBody(String.class))) {
                                release.await(120, TimeUnit.SECONDS);
                            }
                        });
            }
        });
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonObject o = oldest(context);
            // its thread parked in the route, not still on its way there (a loaded machine can take a while)
            return o != null && "running".equals(o.getString("state")) && o.getInteger("waitingBehind") == 19
                   && "TIMED_WAITING".equals(o.getString("threadState"));
        });
        JsonObject o = oldest(context);
        assertThat(o.getLong("offset")).isZero();
        assertThat(o.getString("key")).isEqualTo("k0");
        assertThat(o.getInteger("attempt")).isEqualTo(1);
        assertThat(o.getString("thread")).isNotBlank();
        assertThat(o.getString("threadState")).isEqualTo("TIMED_WAITING");
        assertThat(o.getLong("ageMs")).isGreaterThanOrEqualTo(o.getLong("runningMs"));
        String text = text(context, Map.of());
        assertThat(text).contains(topic + "-0 stuck on: offset 0  key k0  attempt 1  running",
                "(TIMED_WAITING)  waiting behind it in its key lane: 19");

        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("stuck").getConsumer();
        consumer.pausePartition(topic, 0, "the test");
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> "operator"
                .equals(partitions(tasks(route(json(context, Map.of()), "stuck")).get(0)).get(0)
                        .getString("pausedReason")));
        assertThat(route(json(context, Map.of()), "stuck").getString("operatorPausedPartitions"))
                .isEqualTo(topic + "-0 (by the test)");
        assertThat(text(context, Map.of())).contains("Paused by an operator: " + topic + "-0 (by the test)",
                "yes (operator)");
    }

    private static JsonObject oldest(CamelContext context) {
        JsonObject task = tasks(route(json(context, Map.of()), "stuck")).get(0);
        if (partitions(task).isEmpty()) {
            return null;
        }
        return (JsonObject) partitions(task).get(0).get("oldestUnfinished");
    }
}
