package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.PoisonMarkerDeserializer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code batching=true}, a record whose value cannot be deserialized is never routed: it is never in a batch's
 * {@code List<Exchange>} body; with a dead-letter topic it is dead-lettered with reason {@code deserialization} at its
 * exact partition and offset, and every healthy record is processed.
 */
class BatchingUndeserializableRecordIT extends KafkaFetchITSupport {

    @Test
    void undeserializableRecordIsNeverInABatchAndIsDeadLetteredAtItsOffset() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-serde");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        List<String> healthy = new ArrayList<>();
        long poisonOffset = -1;
        int inPartition0 = 0;
        for (int n = 0; n < 40; n++) {
            int partition = n % 2;
            String id = "id-bs-" + n;
            kafka.produce(topic, partition, "k" + n, id, null);
            healthy.add(id);
            if (partition == 0 && ++inPartition0 == 10) {
                poisonOffset = inPartition0; // a fresh topic: partition 0 holds offsets 0..9, the poison goes at 10
                kafka.produce(topic, 0, "kp", PoisonMarkerDeserializer.MARKER, null);
            }
        }
        List<String> inBatches = new CopyOnWriteArrayList<>();
        List<String> done = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&maxPollRecords=20&deadLetterTopic=" + dlt
                                       + "&valueDeserializer=" + PoisonMarkerDeserializer.class.getName()))
                        .routeId("r")
                        .process(e -> {
                            for (Exchange r : DeadLetters.exchanges(e)) {
                                String body = r.getMessage().getBody(String.class);
                                if (r.getMessage().getHeader(KafkaFetchConstants.DESERIALIZATION_ERROR) != null
                                    || PoisonMarkerDeserializer.MARKER.equals(body)) {
                                    inBatches.add(r.getMessage().getHeader(KafkaFetchConstants.PARTITION) + "@"
                                                  + r.getMessage().getHeader(KafkaFetchConstants.OFFSET));
                                } else {
                                    done.add(body);
                                }
                            }
                        });
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsAll(healthy));
        assertThat(inBatches).as("undeserializable records found in a batch body").isEmpty();

        List<ConsumerRecord<String, String>> dead = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(20));
        assertThat(dead).hasSize(1);
        ConsumerRecord<String, String> d = dead.get(0);
        assertThat(d.value()).isEqualTo(PoisonMarkerDeserializer.MARKER);
        assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_REASON)).isEqualTo("deserialization");
        assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ORIGINAL_PARTITION)).isEqualTo("0");
        assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ORIGINAL_OFFSET))
                .isEqualTo(Long.toString(poisonOffset));

        Set<String> lost = new HashSet<>(healthy);
        lost.removeAll(done);
        assertThat(lost).as("lost").isEmpty();
        assertThat(done).doesNotHaveDuplicates();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }
}
