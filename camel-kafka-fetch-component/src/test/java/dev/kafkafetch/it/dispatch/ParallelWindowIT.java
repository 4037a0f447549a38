package dev.kafkafetch.it.dispatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Parallelism beyond the partition count inside a bounded window, with every ordering mode kept. */
class ParallelWindowIT extends KafkaFetchITSupport {

    @Test
    void slowRouteOnOnePartitionRunsFarFasterThanOneAtATime() throws Exception {
        String topic = KafkaTestSupport.uniqueName("par");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 5000, "p", 100);
        Recorder recorder = new Recorder();
        AtomicLong firstStart = new AtomicLong();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=64&ordering=UNORDERED"))
                        .process(e -> firstStart.compareAndSet(0, System.nanoTime()))
                        .process(recorder.measuring(e -> Thread.sleep(10))).process(recorder);
            }
        });
        awaitCount(recorder, produced.size(), Duration.ofSeconds(50));
        // from the first record's start (after the group join) to the last record's end
        double seconds = (System.nanoTime() - firstStart.get()) / 1e9;
        System.out.printf(
                "5000 x 10 ms on 1 partition, maxConcurrency=64: %.1f s (one at a time: 50 s), max %d at once%n",
                seconds, recorder.maxConcurrent());
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        // parallelism is the claim: many records at once, and (wide margin for 2 loaded cores) at least 4x faster
        // than the 50 s one at a time would take
        assertThat(recorder.maxConcurrent()).isGreaterThan(16).isLessThanOrEqualTo(64);
        assertThat(seconds).isLessThan(12.5);
    }

    @Test
    void keyOrderingKeepsOffsetOrderPerKeyWhileKeysRunInParallel() throws Exception {
        String topic = KafkaTestSupport.uniqueName("key");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 2000, "k", 50);
        Recorder recorder = new Recorder();
        Map<String, Integer> inKey = new ConcurrentHashMap<>();
        List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=32&ordering=KEY"))
                        .process(recorder.measuring(e -> {
                            String key = e.getMessage().getHeader(KafkaFetchConstants.KEY, String.class);
                            if (inKey.merge(key, 1, Integer::sum) > 1) {
                                violations.add(key);
                            }
                            Thread.sleep(2);
                            inKey.merge(key, -1, Integer::sum);
                        }))
                        .process(recorder);
            }
        });
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(violations).as("two records of one key at once").isEmpty();
        assertThat(recorder.maxConcurrent()).as("different keys in parallel").isGreaterThan(4);
        Map<String, List<Long>> perKey = new java.util.HashMap<>();
        for (Recorder.Seen s : recorder.all()) {
            perKey.computeIfAbsent(s.partition() + "/" + s.key(), k -> new ArrayList<>()).add(s.offset());
        }
        assertThat(perKey).hasSizeGreaterThanOrEqualTo(50);
        perKey.forEach((k, offsets) -> assertThat(offsets).as("key %s", k).isSorted());
    }

    @Test
    void partitionOrderingOnEightPartitionsKeepsOrderPerPartition() throws Exception {
        String topic = KafkaTestSupport.uniqueName("part");
        kafka.createTopic(topic, 8);
        List<String> produced = kafka.produceIds(topic, 2400, "q", 400);
        Recorder recorder = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=8&ordering=PARTITION"))
                        .process(recorder.measuring(e -> Thread.sleep(1))).process(recorder);
            }
        });
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(recorder.offsetsByPartition()).hasSize(8);
        recorder.offsetsByPartition().forEach((p, offsets) -> assertThat(offsets).as("partition %d", p).isSorted());
        assertThat(recorder.maxConcurrent()).isGreaterThan(1).isLessThanOrEqualTo(8);
    }

    @Test
    void routeSlowerThanMaxPollIntervalKeepsTheConsumerInItsGroup() throws Exception {
        String topic = KafkaTestSupport.uniqueName("slow");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 120, "s", 10);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // 120 x 50 ms = 6 s one at a time, with max.poll.interval.ms = 2 s
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxPollIntervalMs=2000")).routeId("r")
                        .process(e -> Thread.sleep(50)).process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).generation() > 0
                                                           && recorder.count() > 0);
        int generation = consumer.taskSnapshots().get(0).generation();
        long rebalances = consumer.taskSnapshots().get(0).rebalances();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        TaskSnapshot after = consumer.taskSnapshots().get(0);
        assertThat(after.generation()).as("never kicked out of the group").isEqualTo(generation);
        assertThat(after.rebalances()).isEqualTo(rebalances);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
    }

    @Test
    void inFlightNeverExceedsTheWindowAndPartitionsArePausedAndResumed() throws Exception {
        String topic = KafkaTestSupport.uniqueName("bp");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 100_000, "b", 1000);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "maxConcurrency=4&ordering=UNORDERED&maxInFlightRecords=1000&maxPollRecords=200"))
                        .routeId("r")
                        .process(e -> LockSupport.parkNanos(20_000)).process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(120));
        TaskSnapshot s = consumer.taskSnapshots().get(0);
        System.out.printf("100k backlog, window 1000: peak held %d, back-pressure pauses %d%n", s.peakHeld(),
                s.backPressurePauses());
        assertThat(s.peakHeld()).isLessThanOrEqualTo(1000).isGreaterThan(200);
        assertThat(s.backPressurePauses()).isGreaterThan(0);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
    }
}
