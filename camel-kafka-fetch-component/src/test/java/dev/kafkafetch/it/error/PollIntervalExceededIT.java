package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When max.poll.interval.ms is exceeded anyway (here a deserializer that blocks the fetch thread), the consumer
 * loses its partitions, commits fail or are skipped, the task rejoins the group, and nothing is lost.
 */
class PollIntervalExceededIT extends KafkaFetchITSupport {

    @Test
    void taskRejoinsAndNothingIsLost() throws Exception {
        String topic = KafkaTestSupport.uniqueName("exceeded");
        kafka.createTopic(topic, 1);
        List<String> produced = new ArrayList<>(kafka.produceIds(topic, 100, "a", 1));
        kafka.produce(topic, 0, null, "slow", null);
        produced.add("slow");
        produced.addAll(kafka.produceIds(topic, 100, "b", 1));
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "maxPollIntervalMs=1000&maxPollRecords=20&maxInFlightRecords=100"
                                                                  + "&valueDeserializer=dev.kafkafetch.it.SlowStringDeserializer"))
                        .routeId("r").process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        // it was thrown out once (partitions lost or revoked) and joined again
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.taskSnapshots().get(0).rebalances() >= 3);
        System.out.printf("poll interval exceeded: records=%d duplicates=%d rebalances=%d%n", produced.size(),
                recorder.duplicates().size(), consumer.taskSnapshots().get(0).rebalances());
    }
}
