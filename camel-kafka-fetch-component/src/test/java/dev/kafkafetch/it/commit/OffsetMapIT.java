package dev.kafkafetch.it.commit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.commit.OffsetMap;
import dev.kafkafetch.it.ConsumerProcess;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import dev.kafkafetch.window.FinishedOffsets;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With maxConcurrency above 1 records finish out of order: the committed offset stays at the first unfinished record,
 * and the commit's offset map names the finished ones above it. A consumer killed with SIGKILL, or a partition moved
 * by a cooperative rebalance, re-delivers only what was unfinished, not the finished records above it.
 */
class OffsetMapIT extends KafkaFetchITSupport {

    @Test
    void aRestartAfterSigkillRoutesOnlyTheUnfinishedRecord() throws Exception {
        String topic = KafkaTestSupport.uniqueName("omap-kill");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 2000, "om", 50);
        String stuck = produced.get(5); // never finishes in the first JVM, and there is no stallTimeoutMs
        Path out = Files.createTempFile("omap", ".ids");
        String uri = uri(topic, group, "maxConcurrency=64&ordering=UNORDERED");
        TopicPartition tp = new TopicPartition(topic, 0);

        ConsumerProcess first = ConsumerProcess.start(uri, out, 0, stuck);
        int finishedBeforeKill;
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> ConsumerProcess.finished(out).size() == produced.size() - 1);
            // a commit at the stuck record whose map names every other record
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                OffsetAndMetadata c = committed(group, tp);
                FinishedOffsets map = c == null ? null : OffsetMap.decode(c.metadata(), c.offset());
                return c != null && c.offset() == 5 && map != null && map.count() == produced.size() - 6;
            });
            finishedBeforeKill = ConsumerProcess.finished(out).size();
        } finally {
            first.kill();
        }

        ConsumerProcess second = ConsumerProcess.start(uri, out, 0);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> ConsumerProcess.finishedSet(out).contains(stuck));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> committed(group, tp) != null && committed(group, tp).offset() == produced.size());
        } finally {
            second.kill();
        }
        List<String> finished = ConsumerProcess.finished(out);
        assertThat(finished.subList(finishedBeforeKill, finished.size()))
                .as("routed again after the kill (the offset map named every other record finished)")
                .containsExactly(stuck);
        assertThat(new HashSet<>(finished)).containsAll(produced);
    }

    @Test
    void aPartitionMovedByACooperativeRebalanceIsNotRoutedAgainByItsNewOwner() throws Exception {
        String topic = KafkaTestSupport.uniqueName("omap-move");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 600, "mv", 60);
        // the first record of each partition never finishes in member A; whichever partition moves to B, B must
        // route only that one record of it
        Map<Integer, String> firstOfPartition = new ConcurrentHashMap<>();
        CountDownLatch releaseA = new CountDownLatch(1);
        Recorder seenA = new Recorder();
        Recorder seenB = new Recorder();
        String options = "maxConcurrency=64&ordering=UNORDERED&revokeTimeoutMs=300"
                         + "&partitionAssignor=org.apache.kafka.clients.consumer.CooperativeStickyAssignor";
        CamelContext a = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("a").process(e -> {
                    int partition = e.getMessage().getHeader("CamelKafkaPartition", Integer.class);
                    long offset = e.getMessage().getHeader("CamelKafkaOffset", Long.class);
                    if (offset == 0) {
                        firstOfPartition.put(partition, e.getMessage().getBody(String.class));
                        releaseA.await();
                    }
                }).process(seenA);
            }
        });
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) a.getRoute("a").getConsumer();
        await().atMost(Duration.ofSeconds(60)).until(() -> seenA.count() == produced.size() - 2);
        // both partitions committed at their stuck first record, with maps naming the rest
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (int p = 0; p < 2; p++) {
                OffsetAndMetadata c = committed(group, new TopicPartition(topic, p));
                if (c == null || OffsetMap.decode(c.metadata(), c.offset()) == null) {
                    return false;
                }
            }
            return true;
        });

        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("b").process(seenB);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> seenB.count() >= 1
                                                               && consumerA.taskSnapshots().get(0).partitions()
                                                                       .size()
                                                                  == 1);
            Thread.sleep(1000); // anything else B would route shows up meanwhile
        } finally {
            releaseA.countDown();
        }
        int moved = seenB.all().get(0).partition();
        assertThat(seenB.ids()).as("routed by the new owner of partition %d", moved)
                .containsExactly(firstOfPartition.get(moved));
        assertThat(seenB.count()).isEqualTo(1);
        assertThat(consumerA.taskSnapshots().get(0).skippedFinished()).isZero();
        Set<String> all = new HashSet<>(seenA.ids());
        all.addAll(seenB.ids());
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Set<String> now = new HashSet<>(seenA.ids());
            now.addAll(seenB.ids());
            return now.containsAll(produced);
        });
    }

    private static OffsetAndMetadata committed(String group, TopicPartition tp) throws Exception {
        return kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp);
    }
}
