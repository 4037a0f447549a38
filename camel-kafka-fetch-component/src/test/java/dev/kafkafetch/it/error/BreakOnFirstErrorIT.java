package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * breakOnFirstError on a 2-partition topic with one poison record in partition 0: partition 1 is delivered
 * meanwhile, partition 0 retries the poison record up to the bound and then moves on, nothing else is lost or
 * replayed, and the consumer never leaves its group.
 */
class BreakOnFirstErrorIT extends KafkaFetchITSupport {

    @Test
    void poisonRecordIsRetriedUpToTheBoundThenSkippedWithoutRebalance() throws Exception {
        String topic = KafkaTestSupport.uniqueName("break");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            for (int p = 0; p < 2; p++) {
                String id = "id-" + p + "-" + i;
                kafka.produce(topic, p, "k" + i, id, null);
                produced.add(id);
            }
        }
        String poison = "id-0-40";
        Recorder attempts = new Recorder();
        Recorder done = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "breakOnFirstError=true&breakOnFirstErrorMaxAttempts=3")).routeId("r")
                        .process(attempts)
                        .process(e -> {
                            if (e.getMessage().getBody(String.class).equals(poison)) {
                                throw new IllegalStateException("poison");
                            }
                        })
                        .process(done);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).generation() > 0);
        TaskSnapshot before = consumer.taskSnapshots().get(0);
        awaitCount(done, produced.size() - 1, Duration.ofSeconds(60));
        // each retry waits for the partition's next fetch (up to fetch.max.wait.ms)
        await().atMost(Duration.ofSeconds(20))
                .until(() -> attempts.all().stream().filter(s -> s.id().equals(poison)).count() >= 3);
        Thread.sleep(1000);

        List<Recorder.Seen> poisonDeliveries = attempts.all().stream().filter(s -> s.id().equals(poison)).toList();
        assertThat(poisonDeliveries).extracting(s -> s.headers().get(KafkaFetchConstants.DELIVERY_ATTEMPT))
                .containsExactly(1, 2, 3);
        List<String> others = new ArrayList<>(produced);
        others.remove(poison);
        assertThat(done.lost(others)).isEmpty();
        assertThat(done.duplicates()).as("nothing else replayed").isEmpty();
        assertThat(attempts.all().stream().filter(s -> !s.id().equals(poison)).map(Recorder.Seen::id))
                .doesNotHaveDuplicates();
        // partition 1 was never held up by partition 0
        assertThat(done.offsetsByPartition().get(1)).hasSize(100).isSorted();
        TaskSnapshot after = consumer.taskSnapshots().get(0);
        assertThat(after.generation()).as("no rebalance").isEqualTo(before.generation());
        assertThat(after.rebalances()).isEqualTo(before.rebalances());
        assertThat(after.reconnects()).isZero();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(Map.of(new TopicPartition(topic, 0), 100L, new TopicPartition(topic, 1), 100L)));
    }
}
