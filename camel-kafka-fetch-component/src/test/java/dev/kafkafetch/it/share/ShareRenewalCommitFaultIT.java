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
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock renewal whose commit is refused by the broker (the lock ran out first) and whose per-partition results the
 * task never sees, because the commit ended in a timeout or a wakeup: the records of that renewal must count as lock
 * lost (learned from the acknowledgement callback), not as "renewing" forever, so the member goes on, holds nothing
 * once their runs end, and a stop does not wait for them. Two members, one partition, a 2 s lock, one 6 s record; one
 * share consumer per window (with two, a sibling's queued record may be in the faulted renewal and rightly lose its
 * lock, which this test does not count).
 */
class ShareRenewalCommitFaultIT extends ShareITSupport {

    @Test
    void timeoutDuringTheRenewalCommit() throws Exception {
        run(new TimeoutException("injected: renewal commit timed out"));
    }

    @Test
    void wakeupDuringTheRenewalCommit() throws Exception {
        run(new WakeupException());
    }

    private void run(RuntimeException fault) throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-renew-fault");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        List<String> produced = kafka.produceIds(topic, 6, "k", 6);
        String slow = produced.get(0);
        ShareFaults faults = new ShareFaults();
        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group,
                        "consumersCount=2&consumersPerWindow=1&maxPollRecords=1&maxConcurrency=1&kafkaClientFactory=#faults"))
                        .process(exchange -> {
                            String id = exchange.getMessage().getBody(String.class);
                            delivered(exchange, deliveries);
                            Thread.sleep(id.equals(slow) ? 6000 : 20);
                        });
            }
        });
        context.start();
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.containsKey(slow));
        faults.armCommit(2500, fault); // the renewal reaches the broker after the 2 s lock: refused
        await().atMost(Duration.ofSeconds(20)).until(() -> faults.fired() == 1);

        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.keySet().containsAll(produced));
        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) == 0);
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        long stopAt = System.currentTimeMillis();
        context.stop();
        System.out.printf("share renewal commit fault (%s): deliveries %s, held %d, lockLost %d, stop took %d ms%n",
                fault.getClass().getSimpleName(), deliveries, sum(shares, ShareSnapshot::held),
                sum(shares, ShareSnapshot::lockLost), System.currentTimeMillis() - stopAt);
        assertThat(sum(shares, ShareSnapshot::lockLost)).as("the refused renewal counts as a lost lock").isPositive();
        assertThat(sum(shares, ShareSnapshot::held)).as("records held once everything ran").isZero();
        for (String id : produced) {
            if (!id.equals(slow)) {
                assertThat(deliveries.get(id)).as(id).containsExactly(1);
            }
        }
    }
}
