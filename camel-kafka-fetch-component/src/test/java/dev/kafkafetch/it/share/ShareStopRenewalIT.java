package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stop that comes while a record outlives its shutdownTimeout and half an acquisition lock: the stop's wakeup lands on
 * the next lock renewal's synchronous commit, not on a poll. The renewal must still wait for the broker's answer before
 * its zero-time poll hands the renewed record back; a poll made before that answer fetches new records, which then
 * wait in the client until the close gives them back. Here those records are on their last delivery (delivery limit
 * 2, the first delivery taken and released by a plain share consumer), so such a give-back archives them unrouted
 * (and the broker takes any later acknowledgement of an archived record silently). The next member must route them.
 */
class ShareStopRenewalIT extends ShareITSupport {

    private static final long LOCK_MS = 2000;

    @Test
    void aStopDuringALongRecordFetchesNothingWhileTheRecordRuns() throws Exception {
        stopDuringALongRecord("", false);
    }

    /**
     * The same stop, with every renewal's commit giving up before the broker answers (commitTimeoutMs shorter than a
     * round trip, as with a slow broker): the renewal's zero-time poll must still wait for the answer, which comes
     * later through the acknowledgement callback.
     */
    @Test
    void aRenewalWhoseCommitTimesOutFetchesNothingWhileTheRecordRuns() throws Exception {
        stopDuringALongRecord("&commitTimeoutMs=1", true);
    }

    private void stopDuringALongRecord(String options, boolean renewalsTimeOut) throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stop-renewal");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, LOCK_MS);
        deliveryLimit(group, 2);
        kafka.produce(topic, 0, "k", "slow", null);

        Map<String, List<Integer>> deliveries = new ConcurrentHashMap<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CamelContext context = newContext();
        context.addRoutes(route(
                shareUri(topic, group, "maxConcurrency=4&consumersPerWindow=1&shutdownTimeout=2500" + options),
                deliveries, started, finish));
        context.start();
        assertThat(started.await(30, TimeUnit.SECONDS)).as("the slow record started").isTrue();
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        if (renewalsTimeOut) {
            // the premise: a renewal's commit gave up before the broker's answer
            await().atMost(Duration.ofSeconds(10)).until(() -> tasks.stream().map(t -> t.snapshot().lastError())
                    .anyMatch(e -> e != null && e.contains("TimeoutException")));
        }

        // five records whose next delivery is their last: a plain member takes their first and gives it back
        List<String> last = List.of("b1", "b2", "b3", "b4", "b5");
        last.forEach(id -> kafka.produce(topic, 0, "k", id, null));
        assertThat(takeAndRelease(group, topic, last.size())).as("first deliveries, given back")
                .containsExactlyInAnyOrder("b1@1", "b2@1", "b3@1", "b4@1", "b5@1");

        long renewedAtStop = renewed(tasks);
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(context::stop);
        // the premise: the slow record is renewed after the stop and still runs when the task has left (Camel suspends
        // the route first, and waits for its exchanges)
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.stream()
                .allMatch(t -> t.state() == TaskState.PAUSED || t.state() == TaskState.TERMINATED));
        assertThat(renewed(tasks)).as("renewals since the stop").isGreaterThan(renewedAtStop);
        assertThat(deliveries).as("routed before the task left").containsOnlyKeys("slow");
        finish.countDown();
        stopped.get(30, TimeUnit.SECONDS);

        // the next member gets what the first left: the slow record again, and the five on their last delivery
        Map<String, List<Integer>> next = new ConcurrentHashMap<>();
        CamelContext second = newContext();
        second.addRoutes(route(shareUri(topic, group, "maxConcurrency=4&consumersPerWindow=1"), next,
                new CountDownLatch(1), new CountDownLatch(0)));
        second.start();
        try {
            await().atMost(Duration.ofSeconds(15)).until(() -> next.keySet().containsAll(last));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        second.stop();
        System.out.printf("share stop during a renewal: first member %s, next member %s%n", deliveries, next);
        for (String id : last) {
            assertThat(next.get(id)).as("deliveries of %s routed by the next member", id).containsExactly(2);
        }
        assertThat(next.get("slow")).as("the slow record, given back by the close").containsExactly(2);
    }

    /** Records each record's deliveries; "slow" waits for {@code finish}. */
    private static RouteBuilder route(String uri, Map<String, List<Integer>> deliveries, CountDownLatch started,
                                      CountDownLatch finish) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    delivered(exchange, deliveries);
                    if (id.equals("slow")) {
                        started.countDown();
                        finish.await(30, TimeUnit.SECONDS);
                    }
                });
            }
        };
    }

    private static long renewed(List<ShareFetchTask> tasks) {
        return tasks.stream().mapToLong(t -> t.shareSnapshot().renewed()).sum();
    }

    /** A plain share consumer of the group takes {@code n} records and releases them; "value@delivery" of each. */
    private static List<String> takeAndRelease(String group, String topic, int n) {
        List<String> got = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = plainConsumer(group, topic)) {
            long until = System.currentTimeMillis() + 20_000;
            while (got.size() < n && System.currentTimeMillis() < until) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    got.add(r.value() + "@" + r.deliveryCount().orElse((short) 0));
                    c.acknowledge(r, AcknowledgeType.RELEASE);
                }
                c.commitSync();
            }
        }
        return got;
    }
}
