package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A poll fails after its fetch was answered (here {@link ShareFaults#armKeepBackAndFail}: the records stay in the
 * client) and {@code pollOnError=RECONNECT} makes the member leave and join again. The poll before it brought new
 * records, so only the failed poll can have acquired what the client holds: the leave must still take it in, or the
 * close gives it back. With delivery limit 2 the failing record's second delivery is its last, and given back it
 * would be archived unrouted. Lost must be 0: every record routed or dead-lettered (archived counts as lost).
 */
class ShareReconnectBufferedLastDeliveryIT extends ShareITSupport {

    @Test
    void recordsAFailedPollLeftInTheClientAreTakenInBeforeAReconnect() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-reconnect-buffered");
        String group = KafkaTestSupport.uniqueName("sg");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 4, "k", 4);
        String failing = produced.get(0);
        ShareFaults faults = new ShareFaults();
        faults.armKeepBackAndFail(2, new KafkaException("injected: the poll failed after its fetch was answered"));
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        Set<String> routed = ConcurrentHashMap.newKeySet();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, "maxPollRecords=1&maxConcurrency=1&pollOnError=RECONNECT"
                                            + "&kafkaClientFactory=#faults&deadLetterTopic=" + dlt))
                        .process(exchange -> {
                            String id = exchange.getMessage().getBody(String.class);
                            delivered(exchange, deliveries);
                            if (id.equals(failing)) {
                                throw new IllegalStateException("always fails");
                            }
                            routed.add(id);
                        });
            }
        });
        context.start();
        try {
            // the premise: the poll that acquired the failing record's last delivery failed
            await().atMost(Duration.ofSeconds(30)).until(() -> faults.fired() == 1);
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> routed.containsAll(produced.subList(1, 4))
                                                                   && deliveries.get(failing).size() == 2);
            } catch (ConditionTimeoutException e) {
                // asserted below
            }
        } finally {
            context.stop();
        }
        System.out.printf("share reconnect with records in the client: deliveries %s, routed %s%n", deliveries,
                routed);
        assertThat(deliveries.get(failing)).as("the failing record ran on its last delivery").containsExactly(1, 2);
        assertThat(routed).as("routed through")
                .containsExactlyInAnyOrderElementsOf(produced.subList(1, produced.size()));
        assertThat(kafka.readAll(dlt, Duration.ofSeconds(5))).as("dead-lettered on its last delivery")
                .extracting(ConsumerRecord::value).containsExactly(failing);
    }
}
