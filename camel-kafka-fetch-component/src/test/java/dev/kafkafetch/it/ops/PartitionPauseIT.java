package dev.kafkafetch.it.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator pauses one partition (operatorActions=true): only it stops, the others flow; the pause survives a
 * rebalance (a second member joins and leaves); with ordering=KEY and maxConcurrency > 1 its queued records wait,
 * the console names the held record and its key lane; after the resume everything arrives, lost = 0, and nothing
 * twice (a pause never seeks).
 */
class PartitionPauseIT extends KafkaFetchITSupport {

    @Test
    void pausedPartitionStaysPausedAcrossARebalanceWhileOthersFlow() throws Exception {
        String topic = KafkaTestSupport.uniqueName("oppause");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        Recorder a = new Recorder();
        CamelContext ctxA = startContext(route(topic, group, "a", "operatorActions=true&pollTimeoutMs=200", a));
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) ctxA.getRoute("a").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> task(consumerA).partitions().size() == 4);
        List<String> before = kafka.produceIds(topic, 100, "before", 16);
        awaitCount(a, before.size(), Duration.ofSeconds(30));

        String outcome = consumerA.pausePartition(topic, 0, "the test");
        assertThat(outcome).contains("pausing " + topic + "-0");
        await().atMost(Duration.ofSeconds(10)).until(() -> "operator".equals(partition(consumerA, 0).pausedReason()));
        assertThat(consumerA.getPausedPartitions()).isEqualTo(topic + "-0 (by the test)");
        long rebalancesBefore = task(consumerA).rebalances();

        // a second member joins (everything is revoked and assigned again) and leaves (A gets all four back)
        Recorder b = new Recorder();
        CamelContext ctxB = startContext(route(topic, group, "b", "pollTimeoutMs=200", b));
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) ctxB.getRoute("b").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> !consumerB.taskSnapshots().isEmpty()
                                                           && !task(consumerB).partitions().isEmpty());
        ctxB.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> task(consumerA).partitions().size() == 4
                                                           && task(consumerA).rebalances() > rebalancesBefore + 1);
        assertThat(partition(consumerA, 0).pausedReason()).as("paused again when it came back").isEqualTo("operator");

        List<String> after = kafka.produceIds(topic, 400, "after", 16);
        Map<String, Integer> partitionOf = partitionsOf(topic);
        Set<String> ofPaused = after.stream().filter(id -> partitionOf.get(id) == 0).collect(Collectors.toSet());
        assertThat(ofPaused).as("records for the paused partition").isNotEmpty();
        List<String> others = after.stream().filter(id -> !ofPaused.contains(id)).toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> a.ids().containsAll(others));
        // paused in the consumer itself: nothing of it is even fetched (its lag is unknown to the client then)
        assertThat(partition(consumerA, 0).held()).isZero();
        assertThat(a.ids()).as("nothing of the paused partition was processed").doesNotContainAnyElementsOf(ofPaused);
        assertThat(b.ids()).doesNotContainAnyElementsOf(ofPaused);

        consumerA.resumePartition(topic, 0, "the test");
        await().atMost(Duration.ofSeconds(30)).until(() -> a.ids().containsAll(ofPaused));
        List<String> produced = new ArrayList<>(before);
        produced.addAll(after);
        List<String> all = new ArrayList<>(a.ids());
        all.addAll(b.ids());
        assertThat(produced).as("lost").allMatch(all::contains);
        assertThat(a.duplicates()).isEmpty();
        assertThat(consumerA.getPausedPartitions()).isEmpty();
    }

    @Test
    void pauseWithKeyOrderingHoldsQueuedRecordsAndResumesWithoutDuplicates() throws Exception {
        String topic = KafkaTestSupport.uniqueName("oppausekey");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        Recorder seen = new Recorder();
        // after the first 20 records the route waits until the pause took effect, so that the paused partition has
        // records left whatever the machine's speed (the whole topic takes ~1.5 s otherwise)
        CountDownLatch pauseApplied = new CountDownLatch(1);
        CamelContext ctx = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&ordering=KEY&maxConcurrency=8&pollTimeoutMs=200"))
                        .routeId("key").process(e -> {
                            if (seen.count() >= 20) {
                                pauseApplied.await(60, TimeUnit.SECONDS);
                            }
                        }).process(seen.measuring(e -> Thread.sleep(20))).process(seen);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("key").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> task(consumer).partitions().size() == 2);
        List<String> produced = kafka.produceIds(topic, 600, "key", 12);
        Map<String, Integer> partitionOf = partitionsOf(topic);
        Set<String> ofPaused = produced.stream().filter(id -> partitionOf.get(id) == 0).collect(Collectors.toSet());
        List<String> others = produced.stream().filter(id -> !ofPaused.contains(id)).toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.count() >= 20);

        consumer.pausePartition(topic, 0, "the test");
        await().atMost(Duration.ofSeconds(10)).until(() -> "operator".equals(partition(consumer, 0).pausedReason()));
        pauseApplied.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.ids().containsAll(others));
        long processedOfPaused = seen.ids().stream().filter(ofPaused::contains).count();
        assertThat(processedOfPaused).as("the paused partition stopped early").isLessThan(ofPaused.size());
        // its queued records are held, and the console says so: the stuck record, its state, its key lane
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            OldestUnfinished o = partition(consumer, 0).oldestUnfinished();
            return o != null && "held".equals(o.state());
        });
        OldestUnfinished stuck = partition(consumer, 0).oldestUnfinished();
        assertThat(stuck.key()).startsWith("k");
        assertThat(stuck.attempt()).isEqualTo(1);
        assertThat(stuck.waitingBehind()).isGreaterThanOrEqualTo(0);
        assertThat(stuck.offset()).isEqualTo(partition(consumer, 0).committable());
        assertThat(partition(consumer, 1).oldestUnfinished()).as("the other partition is done").isNull();
        assertThat(seen.ids().stream().filter(ofPaused::contains).count()).as("still nothing more of it")
                .isEqualTo(processedOfPaused);
        assertThat(seen.maxConcurrent()).isGreaterThan(1);

        consumer.resumePartition(topic, 0, "the test");
        awaitCount(seen, produced.size(), Duration.ofSeconds(60));
        assertThat(seen.lost(produced)).isEmpty();
        assertThat(seen.duplicates()).as("a pause never seeks").isEmpty();
    }

    private static RouteBuilder route(String topic, String group, String id, String extra, Recorder recorder) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, extra)).routeId(id).process(recorder);
            }
        };
    }

    static TaskSnapshot task(KafkaFetchConsumer consumer) {
        return consumer.taskSnapshots().get(0);
    }

    static PartitionSnapshot partition(KafkaFetchConsumer consumer, int partition) {
        return task(consumer).partitions().stream().filter(p -> p.partition() == partition).findFirst()
                .orElseThrow(() -> new AssertionError("partition " + partition + " not assigned"));
    }

    private static Map<String, Integer> partitionsOf(String topic) {
        Map<String, Integer> map = new HashMap<>();
        for (ConsumerRecord<String, String> r : kafka.readAll(topic, Duration.ofSeconds(30))) {
            map.put(r.value(), r.partition());
        }
        return map;
    }
}
