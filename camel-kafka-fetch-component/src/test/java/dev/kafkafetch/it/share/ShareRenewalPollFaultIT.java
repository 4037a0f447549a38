package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.KafkaException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The zero-time poll of a lock renewal fails: that is a poll error like any other, handled by {@code pollOnError}
 * (ERROR_HANDLER by default: reported, and the member goes on); the task must not end. One member, a 2 s lock, one
 * 3 s record among others: every record is routed, once.
 */
class ShareRenewalPollFaultIT extends ShareITSupport {

    @Test
    void aFailedRenewalPollIsAPollError() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-renew-poll");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        List<String> produced = kafka.produceIds(topic, 8, "k", 8);
        String slow = produced.get(0);
        ShareFaults faults = new ShareFaults();
        Map<String, List<String>> routed = new ConcurrentHashMap<>();
        CamelContext context = newContext();
        context.getRegistry().bind("faults", faults);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group,
                        "consumersPerWindow=1&maxPollRecords=2&maxConcurrency=1&kafkaClientFactory=#faults"))
                        .process(exchange -> {
                            String id = exchange.getMessage().getBody(String.class);
                            routed.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(id);
                            Thread.sleep(id.equals(slow) ? 3000 : 20);
                        });
            }
        });
        context.start();
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        await().atMost(Duration.ofSeconds(30)).until(() -> routed.containsKey(slow));
        faults.armZeroPoll(new KafkaException("injected: the renewal's poll failed"));
        await().atMost(Duration.ofSeconds(20)).until(() -> faults.fired() == 1);

        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> routed.keySet().containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        TaskState state = consumer.tasks().get(0).state();
        System.out.printf("share renewal poll fault: routed %d of %d, task %s%n", routed.size(), produced.size(),
                state);
        assertThat(state).isEqualTo(TaskState.RUNNING);
        assertThat(routed.keySet()).containsExactlyInAnyOrderElementsOf(produced);
        assertThat(routed.values()).allSatisfy(runs -> assertThat(runs).hasSize(1));
    }
}
