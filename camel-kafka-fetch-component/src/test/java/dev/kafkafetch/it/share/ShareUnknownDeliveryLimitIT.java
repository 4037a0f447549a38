package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The share group's delivery limit (2 here) cannot be read when the member connects, and {@code maxDeliveryAttempts}
 * is left at 5: a record that always fails must still reach the dead-letter topic, not be released on its last
 * delivery and archived by the broker. Once the limit can be read again (in the background, never on the poll
 * thread) the member knows it.
 */
class ShareUnknownDeliveryLimitIT extends ShareITSupport {

    private static final String POISON = "always-fails";

    @Test
    void anUnreadableLimitNeverArchivesAFailedRecord() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-limit");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        ShareFaults faults = new ShareFaults();
        faults.failAdmin(1); // the read when the member connects
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group,
                        "maxPollRecords=1&consumersPerWindow=1&deadLetterTopic=" + dlt + "&kafkaClientFactory=#faults"))
                        .process(exchange -> {
                            String id = exchange.getMessage().getBody(String.class);
                            int delivery = delivered(exchange, deliveries);
                            if (id.equals(POISON)) {
                                throw new IllegalStateException("fails on delivery " + delivery);
                            }
                        });
            }
        });
        context.start();
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        await().atMost(Duration.ofSeconds(20)).until(() -> faults.fired() == 1);
        assertThat(consumer.shareSnapshots().get(0).deliveryCountLimit()).as("the limit was not read").isEqualTo(-1);
        kafka.produce(topic, 0, "k", POISON, null);
        kafka.produce(topic, 0, "k", "fine", null);

        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.containsKey("fine"));
        System.out.printf("share unknown delivery limit: deliveries %s, dead letters %d%n", deliveries,
                letters.size());
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).value()).isEqualTo(POISON);
        assertThat(deliveries.get("fine")).containsExactly(1);
        // read again in the background
        await().atMost(Duration.ofSeconds(60))
                .until(() -> consumer.shareSnapshots().get(0).deliveryCountLimit() == 2);
    }
}
