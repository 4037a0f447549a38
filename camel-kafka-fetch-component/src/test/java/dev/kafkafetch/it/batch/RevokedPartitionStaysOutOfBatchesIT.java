package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An incremental revoke (KIP-848 consumer group protocol) with batching: batches mix records of several partitions,
 * and when member A gives partition p to a new member B, every batch of A holding records of p is either finished
 * before the revoke completes or dropped. Once A's snapshot no longer lists p, A never starts a batch with a record
 * of p (it would process records another member now owns); nothing is lost. Premises checked (the test fails
 * without them): A ran batches mixing both partitions and had several queued, and B received records of p.
 */
class RevokedPartitionStaysOutOfBatchesIT extends KafkaFetchITSupport {

    @Test
    void noBatchWithARevokedPartitionStartsAfterTheRevoke() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-revoke");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        // one producer batch per record, and small fetches: each poll returns a few records of each partition
        for (int i = 0; i < 100; i++) {
            for (int p = 0; p < 2; p++) {
                String id = "id-" + p + "-" + i;
                kafka.produce(topic, p, "k" + i, id, null);
                produced.add(id);
            }
        }
        String options = "batching=true&groupProtocol=consumer&maxPollRecords=10&maxInFlightRecords=200"
                         + "&additionalProperties.max.partition.fetch.bytes=512";
        AtomicReference<KafkaFetchConsumer> consumerA = new AtomicReference<>();
        Set<String> seenA = ConcurrentHashMap.newKeySet();
        Set<String> seenB = ConcurrentHashMap.newKeySet();
        List<String> violations = new CopyOnWriteArrayList<>();
        List<Integer> mixedBatches = new CopyOnWriteArrayList<>();
        CamelContext ctxA = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("a").process(e -> {
                    Set<Integer> owned = listedPartitions(consumerA.get());
                    Set<Integer> inBatch = partitionsOf(e);
                    if (inBatch.size() > 1) {
                        mixedBatches.add(inBatch.size());
                    }
                    if (!owned.containsAll(inBatch)) {
                        violations.add("batch with records of " + inBatch + " started while A's snapshot lists "
                                       + owned);
                    }
                    Thread.sleep(150); // slow batches: several wait in the queue
                    seenA.addAll(idsOf(e));
                });
            }
        });
        consumerA.set((KafkaFetchConsumer) ctxA.getRoute("a").getConsumer());
        // the premise before the revoke: A has run a batch mixing both partitions and has several queued
        await().atMost(Duration.ofSeconds(30)).until(() -> seenA.size() >= 20 && !mixedBatches.isEmpty()
                                                           && queued(consumerA.get()) >= 3);

        CamelContext ctxB = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("b").process(e -> seenB.addAll(idsOf(e)));
            }
        });
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) ctxB.getRoute("b").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> !listedPartitions(consumerB).isEmpty()
                                                           && listedPartitions(consumerA.get()).size() == 1);
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
                Set<String> all = new HashSet<>(seenA);
                all.addAll(seenB);
                return all.containsAll(produced);
            });
        } catch (ConditionTimeoutException e) {
            // the assertion below names what is missing
        }
        Thread.sleep(500);

        assertThat(mixedBatches).as("batches mixing partitions (the test's premise)").isNotEmpty();
        assertThat(seenB).as("records B received for the partition it took from A (the test's premise)")
                .isNotEmpty();
        assertThat(violations).as("batches A started with records of a partition it no longer owns").isEmpty();
        Set<String> lost = new TreeSet<>(produced);
        lost.removeAll(seenA);
        lost.removeAll(seenB);
        assertThat(lost).as("lost").isEmpty();
    }

    private static Set<Integer> listedPartitions(KafkaFetchConsumer consumer) {
        Set<Integer> set = new HashSet<>();
        consumer.taskSnapshots().forEach(s -> s.partitions().forEach(p -> set.add(p.partition())));
        return set;
    }

    private static int queued(KafkaFetchConsumer consumer) {
        return consumer.taskSnapshots().stream().mapToInt(s -> s.queued()).sum();
    }

    @SuppressWarnings("unchecked")
    private static List<Exchange> records(Exchange batch) {
        return batch.getMessage().getBody(List.class);
    }

    private static Set<Integer> partitionsOf(Exchange batch) {
        Set<Integer> set = new TreeSet<>();
        for (Exchange r : records(batch)) {
            set.add(r.getMessage().getHeader(KafkaFetchConstants.PARTITION, Integer.class));
        }
        return set;
    }

    private static List<String> idsOf(Exchange batch) {
        List<String> ids = new ArrayList<>();
        for (Exchange r : records(batch)) {
            ids.add(r.getMessage().getBody(String.class));
        }
        return ids;
    }
}
