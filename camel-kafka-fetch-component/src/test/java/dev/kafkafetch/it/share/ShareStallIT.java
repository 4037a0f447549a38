package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A share record that hangs in the route longer than {@code stallTimeoutMs} (1 s, under a 2 s lock) is given up on:
 * its slot goes to the next record, its lock is no longer renewed, and it fails that delivery: released for another
 * delivery while deliveries remain, then dead-lettered with reason {@code stalled} (or, without a dead-letter topic,
 * rejected). A stop right after does not wait for the hung thread. Every other record is routed once.
 */
class ShareStallIT extends ShareITSupport {

    private static final String HANGS = "hangs";
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void releaseHungThreads() {
        never.countDown();
    }

    @Test
    void aStalledRecordIsReleasedThenDeadLettered() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stall");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 2000);
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CamelContext context = startContext(route(topic, group,
                "stallTimeoutMs=1000&maxDeliveryAttempts=2&maxConcurrency=2&maxPollRecords=4&deadLetterTopic=" + dlt,
                deliveries));
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        List<String> produced = produce(topic);

        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(20)).until(() -> deliveries.keySet().containsAll(produced));
        await().atMost(Duration.ofSeconds(10)).until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) == 0);
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        long stopAt = System.currentTimeMillis();
        context.stop();
        System.out.printf("share stall: deliveries %s, letters %d, snapshots %s, stop took %d ms%n", deliveries,
                letters.size(), shares, System.currentTimeMillis() - stopAt);
        assertThat(never.getCount()).as("the hung record never returned").isOne();
        assertThat(deliveries.get(HANGS)).as("released once, then its last delivery").containsExactly(1, 2);
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).value()).isEqualTo(HANGS);
        assertThat(DeadLetters.header(letters.get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
        assertThat(sum(shares, ShareSnapshot::released)).isEqualTo(1);
        assertThat(sum(shares, ShareSnapshot::lockLost)).isZero();
        for (String id : produced) {
            if (!id.equals(HANGS)) {
                assertThat(deliveries.get(id)).as(id).containsExactly(1);
            }
        }
    }

    @Test
    void withoutDeadLetterTopicAStalledRecordIsRejectedOnItsLastDelivery() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stall-reject");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CamelContext context = startContext(route(topic, group,
                "stallTimeoutMs=1000&maxDeliveryAttempts=2&maxConcurrency=2&maxPollRecords=4", deliveries));
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        List<String> produced = produce(topic);

        // summed over the tasks: with consumersPerWindow above 1 either consumer may get the second delivery
        await().atMost(Duration.ofSeconds(30)).until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::rejected) == 1
                                                           && deliveries.keySet().containsAll(produced));
        await().atMost(Duration.ofSeconds(10)).until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) == 0);
        assertThat(deliveries.get(HANGS)).containsExactly(1, 2);
        assertThat(sum(consumer.shareSnapshots(), ShareSnapshot::released)).isEqualTo(1);
    }

    /** The hanging record first, then ten that run at once. */
    private static List<String> produce(String topic) {
        kafka.produce(topic, 0, "k", HANGS, null);
        List<String> ids = new ArrayList<>(kafka.produceIds(topic, 10, "k", 10));
        ids.add(HANGS);
        return ids;
    }

    private RouteBuilder route(String topic, String group, String options, Map<String, List<Integer>> deliveries) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, options)).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    delivered(exchange, deliveries);
                    if (id.equals(HANGS)) {
                        never.await();
                    }
                });
            }
        };
    }
}
