package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * breakOnFirstError on one partition never postpones another partition's interval commit: while a record of
 * partition 0 fails and is re-delivered more often than {@code autoCommitIntervalMs}, the records of partition 1 are
 * processed and partition 1's committed offset reaches its end offset within a few commit intervals.
 */
class BreakOnFirstErrorOtherPartitionCommitsIT extends KafkaFetchITSupport {

    @Test
    void otherPartitionIsCommittedWhileOnePartitionRetries() throws Exception {
        String topic = KafkaTestSupport.uniqueName("boe-starve");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        String poison = "poison-p0";
        kafka.produce(topic, 0, "k", poison, null);
        List<String> p1 = new ArrayList<>();
        for (int n = 0; n < 50; n++) {
            String id = "id-p1-" + n;
            kafka.produce(topic, 1, "k" + n, id, null);
            p1.add(id);
        }
        AtomicInteger poisonDeliveries = new AtomicInteger();
        Recorder done = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // unlimited attempts: partition 0 is re-delivered about every 100 ms, far below the 1 s interval
                from(uri(topic, group, "breakOnFirstError=true&maxConcurrency=2&autoCommitIntervalMs=1000"))
                        .routeId("r")
                        .process(e -> {
                            if (poison.equals(e.getMessage().getBody(String.class))) {
                                poisonDeliveries.incrementAndGet();
                                Thread.sleep(100);
                                throw new IllegalStateException("poison");
                            }
                        })
                        .process(done);
            }
        });
        awaitCount(done, p1.size(), Duration.ofSeconds(30));
        assertThat(done.lost(p1)).isEmpty();
        int deliveriesBefore = poisonDeliveries.get();

        TopicPartition tp1 = new TopicPartition(topic, 1);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic).get(tp1)).as("committed offset of partition 1 (end 50)")
                .isEqualTo(50L));
        // the precondition holds: partition 0 is still being re-delivered (on a loaded machine the commit can come
        // before its next delivery)
        await().atMost(Duration.ofSeconds(5)).until(() -> poisonDeliveries.get() > deliveriesBefore);
    }
}
