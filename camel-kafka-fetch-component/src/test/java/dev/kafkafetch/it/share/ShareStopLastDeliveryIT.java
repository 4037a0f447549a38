package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A share group with delivery limit 2, 12 records, {@code maxConcurrency=1}, and the route stopped twice while it holds
 * queued, never-started records: the first stop gives them back (delivery 1 of 2), the second stop finds them on
 * their last delivery, where any give-back archives them (see {@link ShareBrokerReleaseIT}). Lost must be 0: every
 * record is routed (none archived unrouted), and duplicates only within what the stops could give back.
 */
class ShareStopLastDeliveryIT extends ShareITSupport {

    @Test
    void stopsOnTheLastDeliveryLoseNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stop-last");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 12, "k", 12);
        // one share consumer per window (consumersPerWindow=1): the premise is about one consumer's own records
        String uri = shareUri(topic, group, "maxPollRecords=12&maxConcurrency=1&consumersPerWindow=1");
        Set<String> routed = ConcurrentHashMap.newKeySet();
        Map<String, Integer> lastDelivery = new ConcurrentHashMap<>();

        for (int round = 1; round <= 2; round++) {
            Set<String> started = ConcurrentHashMap.newKeySet();
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri).process(exchange -> {
                        String id = exchange.getMessage().getBody(String.class);
                        started.add(id);
                        lastDelivery.put(id,
                                exchange.getMessage().getHeader(KafkaFetchShareConstants.DELIVERY_COUNT,
                                        Integer.class));
                        Thread.sleep(300);
                        routed.add(id);
                    });
                }
            });
            int r = round;
            await().atMost(Duration.ofSeconds(30)).until(() -> !started.isEmpty());
            int held = shareConsumer(context).shareSnapshots().get(0).held();
            System.out.printf("share stop on last delivery: round %d stops holding %d records%n", r, held);
            assertThat(held).as("round " + r + ": queued, never-started records at the stop").isGreaterThan(1);
            context.stop();
        }
        // a third run takes whatever is left
        CamelContext last = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> routed.add(exchange.getMessage().getBody(String.class)));
            }
        });
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> routed.containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // counted and asserted below
        }
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(routed);
        System.out.printf("share stop on last delivery: lost %d of %d (%s), deliveries %s%n", lost.size(),
                produced.size(), lost, lastDelivery);
        assertThat(lost).isEmpty();
        last.stop();
    }
}
