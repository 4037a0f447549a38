package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member holds a running slow record and a queued one when its lock renewal is refused (the renewal reached the
 * broker after the 2 s lock ran out): the broker may give both to any member now, so the queued record must never be
 * started from this old delivery; it runs once, from its next delivery.
 */
class ShareLostLockQueuedIT extends ShareITSupport {

    @Test
    void aQueuedRecordWhoseLockIsLostNeverStarts() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-lost-queued");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        List<String> produced = kafka.produceIds(topic, 2, "k", 2);
        String slow = produced.get(0);
        String queued = produced.get(1);
        ShareFaults faults = new ShareFaults();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // one share consumer per window: the premise is one consumer holding both records
                from(shareUri(topic, group,
                        "maxPollRecords=2&maxConcurrency=1&consumersPerWindow=1&kafkaClientFactory=#faults"))
                        .process(exchange -> {
                            String id = exchange.getMessage().getBody(String.class);
                            int delivery = delivered(exchange, deliveries);
                            Thread.sleep(id.equals(slow) && delivery == 1 ? 6000 : 20);
                        });
            }
        });
        context.start();
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.containsKey(slow));
        assertThat(consumer.shareSnapshots().get(0).held()).as("the slow record runs, the other one is queued")
                .isEqualTo(2);
        faults.armCommit(2500, null); // the renewal reaches the broker after the 2 s lock: refused
        await().atMost(Duration.ofSeconds(20)).until(() -> faults.fired() == 1);
        assertThat(deliveries).as("still queued when its lock was lost").doesNotContainKey(queued);

        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.containsKey(queued)
                                                           && deliveries.get(slow).size() >= 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.shareSnapshots().get(0).held() == 0);
        ShareSnapshot share = consumer.shareSnapshots().get(0);
        System.out.printf("share lost lock, queued record: deliveries %s, lockLost %d%n", deliveries,
                share.lockLost());
        assertThat(share.lockLost()).isGreaterThanOrEqualTo(2);
        assertThat(deliveries.get(queued)).as("routed only from its delivery after the lost lock")
                .containsExactly(2);
    }
}
