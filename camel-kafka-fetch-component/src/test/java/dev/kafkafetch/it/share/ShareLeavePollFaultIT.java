package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.KafkaException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A poll that fails while a member leaves its share group (here the lock renewal's zero-time poll, during a stop) is
 * one failed poll, not the end of the leave: with delivery limit 2, two records fail their first delivery and come
 * back together on their last, the first running 3 s (a 2 s lock, so it is renewed during the stop) while the second
 * waits in the queue. Giving the queued one back would make the broker archive it unrouted; it must still run before
 * the member leaves, and the running one must finish and be acknowledged. Lost must be 0 (archived counts as lost).
 */
class ShareLeavePollFaultIT extends ShareITSupport {

    @Test
    void aPollFailingWhileTheMemberLeavesStillRunsTheLastDeliveries() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-leave-poll");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        deliveryLimit(group, 2);
        List<String> produced = kafka.produceIds(topic, 2, "k", 2);
        String slow = produced.get(0);
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        Map<String, List<Integer>> routed = new ConcurrentHashMap<>();
        ShareFaults faults = new ShareFaults();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(route(shareUri(topic, group,
                "consumersPerWindow=1&maxPollRecords=2&maxConcurrency=1&kafkaClientFactory=#faults"), slow, deliveries,
                routed));
        context.start();
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        // the premise: both records on their last delivery in this member, the slow one running, the other queued
        await().atMost(Duration.ofSeconds(30))
                .until(() -> deliveries.getOrDefault(slow, List.of()).contains(2)
                             && sum(consumer.shareSnapshots(), s -> s.held()) == 2);
        assertThat(deliveries.get(produced.get(1))).as("the queued record's deliveries at the stop").containsExactly(1);
        faults.armLeavingZeroPoll(new KafkaException("injected: a poll failed while leaving"));
        context.stop();
        System.out.printf("share leave poll fault: fired %d, deliveries %s, routed %s%n", faults.fired(), deliveries,
                routed);
        assertThat(faults.fired()).as("the poll failed while the member left").isEqualTo(1);

        // another member would get anything given back with deliveries left (nothing should be)
        CamelContext next = newContext();
        next.addRoutes(route(shareUri(topic, group, "maxConcurrency=1"), slow, deliveries, routed));
        next.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> routed.keySet().containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        next.stop();
        assertThat(routed).as("records routed through, on their last delivery")
                .containsOnlyKeys(produced).allSatisfy((id, d) -> assertThat(d).containsExactly(2));
    }

    /** Fails every first delivery; the slow record's second delivery takes 3 s. */
    private static RouteBuilder route(String uri, String slow, Map<String, List<Integer>> deliveries,
                                      Map<String, List<Integer>> routed) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    int delivery = delivered(exchange, deliveries);
                    if (delivery == 1) {
                        throw new IllegalStateException("the first delivery fails");
                    }
                    if (id.equals(slow)) {
                        Thread.sleep(3000);
                    }
                    routed.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(delivery);
                });
            }
        };
    }
}
