package dev.kafkafetch.it.error;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A batch that stalls in the route ({@code batching=true}, {@code stallTimeoutMs}, {@code deadLetterTopic}) is
 * dead-lettered record by record: each record of the batch appears in the dead-letter topic as itself (its own key,
 * value and headers, its own offset, reason {@code stalled}), never as one record made from the batch, and nothing is
 * lost.
 */
class StalledBatchDeadLetterIT extends KafkaFetchITSupport {

    @Test
    void eachRecordOfAStalledBatchIsDeadLetteredAsItself() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stall-batch");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = new ArrayList<>();
        for (int n = 0; n < 30; n++) {
            String id = "id-sb-" + n;
            kafka.produce(topic, 0, "k" + n, id, Map.of("origin", ("o-" + n).getBytes(StandardCharsets.UTF_8)));
            produced.add(id); // a fresh one-partition topic: id-sb-n is at offset n
        }
        String first = produced.get(0);
        AtomicReference<List<String>> stuckBatch = new AtomicReference<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&maxPollRecords=10&stallTimeoutMs=1000&deadLetterTopic=" + dlt))
                        .routeId("r")
                        .process(e -> {
                            List<String> ids = new ArrayList<>();
                            for (Exchange r : DeadLetters.exchanges(e)) {
                                ids.add(r.getMessage().getBody(String.class));
                            }
                            // the first batch holding the first record stalls (until the test ends)
                            if (ids.contains(first) && stuckBatch.compareAndSet(null, ids)) {
                                entered.countDown();
                                release.await();
                                return;
                            }
                            done.addAll(ids);
                        });
            }
        });
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the first batch reached the route").isTrue();
            List<String> stuck = stuckBatch.get();
            assertThat(stuck).as("the stalled batch carries several records").hasSizeGreaterThan(1);

            // everything is committed once every record was processed or is safely in the dead-letter topic
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
            List<ConsumerRecord<String, String>> dead = kafka.readAll(dlt, Duration.ofSeconds(10));

            assertThat(dead).extracting(ConsumerRecord::value).as("dead letters of the stalled batch")
                    .containsExactlyInAnyOrderElementsOf(stuck);
            for (ConsumerRecord<String, String> d : dead) {
                int n = Integer.parseInt(d.value().substring("id-sb-".length()));
                assertThat(d.key()).as("key of %s", d.value()).isEqualTo("k" + n);
                assertThat(DeadLetters.header(d, "origin")).as("original header of %s", d.value()).isEqualTo("o-" + n);
                assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ORIGINAL_OFFSET))
                        .as("original offset of %s", d.value()).isEqualTo(Long.toString(n));
                assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ORIGINAL_PARTITION)).isEqualTo("0");
                assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
            }
            // lost = 0: every id completed by the route or present in the dead-letter topic
            Set<String> lost = new HashSet<>(produced);
            lost.removeAll(done);
            dead.forEach(d -> lost.remove(d.value()));
            assertThat(lost).as("lost").isEmpty();
        } finally {
            release.countDown();
        }
    }
}
