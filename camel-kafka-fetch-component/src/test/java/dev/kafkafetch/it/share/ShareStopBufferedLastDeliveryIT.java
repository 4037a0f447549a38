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
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stop that comes while the client holds records it acquired but no poll returned yet (a fetch answered after the
 * poll gave up, here kept back by {@link ShareFaults#armKeepBack}): with delivery limit 2, the failing record's second
 * delivery is its last, and the close would give it back, so the broker would archive it unrouted. The member takes
 * those records in before it leaves: the record on its last delivery runs, the rest go back with deliveries left.
 * Lost must be 0: every record routed or dead-lettered (archived counts as lost).
 */
class ShareStopBufferedLastDeliveryIT extends ShareITSupport {

    @Test
    void recordsTheClientHoldsAtAStopAreTakenInBeforeItLeaves() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-buffered");
        String group = KafkaTestSupport.uniqueName("sg");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 4, "k", 4);
        String failing = produced.get(0);
        ShareFaults faults = new ShareFaults();
        faults.armKeepBack(2);
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        Set<String> routed = ConcurrentHashMap.newKeySet();
        String uri = shareUri(topic, group,
                "maxPollRecords=1&maxConcurrency=1&kafkaClientFactory=#faults&deadLetterTopic=" + dlt);
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(route(uri, failing, deliveries, routed));
        context.start();
        // the premise: the failing record's last delivery was acquired and kept back in the client
        await().atMost(Duration.ofSeconds(30)).until(() -> faults.fired() == 1);
        assertThat(deliveries.get(failing)).as("deliveries routed before the stop").containsExactly(1);
        context.stop();
        System.out.printf("share stop with records in the client: deliveries at the stop %s%n", deliveries);

        // another member takes what is left
        CamelContext next = newContext();
        next.addRoutes(
                route(shareUri(topic, group, "maxConcurrency=1&deadLetterTopic=" + dlt), failing, deliveries, routed));
        next.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> routed.containsAll(produced)
                                                               && deliveries.containsKey(failing)
                                                               && deliveries.get(failing).size() == 2);
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        next.stop();
        System.out.printf("share stop with records in the client: deliveries %s, routed %s%n", deliveries, routed);
        assertThat(deliveries.get(failing)).as("the failing record ran on its last delivery")
                .containsExactly(1, 2);
        assertThat(routed).as("routed through")
                .containsExactlyInAnyOrderElementsOf(produced.subList(1, produced.size()));
        assertThat(kafka.readAll(dlt, Duration.ofSeconds(5))).as("dead-lettered on its last delivery")
                .extracting(ConsumerRecord::value).containsExactly(failing);
    }

    /** Fails {@code failing} every time; records each record's deliveries and the records routed through. */
    private static RouteBuilder route(String uri, String failing, Map<String, List<Integer>> deliveries,
                                      Set<String> routed) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    delivered(exchange, deliveries);
                    if (id.equals(failing)) {
                        throw new IllegalStateException("always fails");
                    }
                    routed.add(id);
                });
            }
        };
    }
}
