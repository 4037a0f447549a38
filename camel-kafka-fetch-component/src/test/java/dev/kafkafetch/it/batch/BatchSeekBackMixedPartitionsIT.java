package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * breakOnFirstError with batching: when a batch of one partition fails, the batches queued behind it that also hold
 * records of another partition are dropped (some by the worker, before the fetch thread sought back), and that other
 * partition is sought back to its first dropped record too. None of their
 * records is skipped, each partition's records first succeed in offset order, and everything is committed.
 */
class BatchSeekBackMixedPartitionsIT extends KafkaFetchITSupport {

    @Test
    void batchesDroppedBehindAFailedOneAreDeliveredAgainWithEveryPartition() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-mixed");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            produce(topic, 0, i, produced); // the first batch holds records of partition 0 only
        }
        AtomicBoolean failed = new AtomicBoolean();
        CountDownLatch firstBatchRunning = new CountDownLatch(1);
        Set<String> succeeded = ConcurrentHashMap.newKeySet();
        List<String> inversions = new CopyOnWriteArrayList<>();
        Map<Integer, Long> lastFirstSuccess = new ConcurrentHashMap<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&breakOnFirstError=true&maxPollRecords=6"
                                       + "&additionalProperties.max.partition.fetch.bytes=256"))
                        .routeId("r").process(e -> {
                            List<Exchange> records = records(e);
                            boolean hasP0At4 = records.stream().anyMatch(r -> partition(r) == 0 && offset(r) == 4);
                            if (hasP0At4 && failed.compareAndSet(false, true)) {
                                firstBatchRunning.countDown();
                                Thread.sleep(1000); // the batches polled meanwhile, of both partitions, queue up
                                throw new IllegalStateException("the first delivery of 0@4 fails");
                            }
                            for (Exchange r : records) {
                                if (succeeded.add(r.getMessage().getBody(String.class))) {
                                    Long before = lastFirstSuccess.put(partition(r), offset(r));
                                    if (before != null && before > offset(r)) {
                                        inversions.add(partition(r) + "@" + offset(r) + " after @" + before);
                                    }
                                }
                            }
                        });
            }
        });
        assertThat(firstBatchRunning.await(20, TimeUnit.SECONDS)).isTrue();
        // one producer batch per record and small fetches: each poll returns a few records of each partition
        for (int i = 6; i < 60; i++) {
            produce(topic, 0, i, produced);
            produce(topic, 1, i - 6, produced);
        }
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> succeeded.containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // the assertions below name what is missing
        }
        assertThat(failed).as("the premise: one batch failed").isTrue();
        Set<String> missing = new TreeSet<>(produced);
        missing.removeAll(succeeded);
        assertThat(missing).as("never succeeded").isEmpty();
        assertThat(inversions).as("first successes out of offset order").isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(Map.of(new TopicPartition(topic, 0), 60L, new TopicPartition(topic, 1), 54L)));
    }

    private static void produce(String topic, int partition, int i, List<String> produced) {
        String id = partition + "-" + i;
        kafka.produce(topic, partition, "k" + i, id, null);
        produced.add(id);
    }

    @SuppressWarnings("unchecked")
    private static List<Exchange> records(Exchange batch) {
        return batch.getMessage().getBody(List.class);
    }

    private static int partition(Exchange record) {
        return record.getMessage().getHeader(KafkaFetchConstants.PARTITION, Integer.class);
    }

    private static long offset(Exchange record) {
        return record.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class);
    }
}
