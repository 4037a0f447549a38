package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One partition, four share-group members in one route, a 10 ms route: every record is routed exactly once (lost 0,
 * no duplicate), several members work the same partition at the same time (measured from their snapshots), every
 * record is accepted, and each exchange carries the record's headers and its delivery count. With ordering=KEY, one
 * member never runs two records of one key at the same time, while records of different keys run in parallel.
 */
class ShareGroupIT extends ShareITSupport {

    @Test
    void fourMembersShareOnePartition() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        List<String> produced = kafka.produceIds(topic, 1200, "k", 50);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, "consumersCount=4&maxPollRecords=10&maxConcurrency=2"))
                        .routeId("share").process(recorder.measuring(exchange -> Thread.sleep(10)))
                        .process(recorder);
            }
        });
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        AtomicInteger maxMembersAtOnce = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                maxMembersAtOnce.accumulateAndGet(tasksRunning(consumer), Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
        try {
            awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        } finally {
            sampling.set(false);
            sampler.join();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::accepted)
                                                           >= produced.size());
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        long membersThatWorked = shares.stream().filter(s -> s.acquired() > 0).count();
        System.out.printf("share group: records=%d lost=%d duplicates=%d maxMembersInRouteAtOnce=%d"
                          + " maxExchangesInRoute=%d acquiredPerMember=%s%n",
                produced.size(), recorder.lost(produced).size(), recorder.duplicates().size(), maxMembersAtOnce.get(),
                recorder.maxConcurrent(), shares.stream().map(ShareSnapshot::acquired).toList());

        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(maxMembersAtOnce.get()).as("members with a record in the route at the same time").isGreaterThan(1);
        assertThat(membersThatWorked).isGreaterThan(1);
        assertThat(sum(shares, ShareSnapshot::accepted)).isEqualTo(produced.size());
        assertThat(sum(shares, ShareSnapshot::released) + sum(shares, ShareSnapshot::rejected)).isZero();
        Recorder.Seen first = recorder.all().get(0);
        assertThat(first.partition()).isZero();
        assertThat(first.headers()).containsEntry(KafkaFetchShareConstants.TOPIC, topic)
                .containsEntry(KafkaFetchShareConstants.DELIVERY_COUNT, 1)
                .containsEntry(KafkaFetchShareConstants.GROUP_ID, group)
                .containsKeys(KafkaFetchShareConstants.KEY, KafkaFetchShareConstants.OFFSET,
                        KafkaFetchShareConstants.TIMESTAMP, KafkaFetchShareConstants.HEADERS);
    }

    @Test
    void keyOrderingAmongTheRecordsOfOneMember() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-key");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        List<String> produced = kafka.produceIds(topic, 400, "k", 8);
        Map<String, AtomicInteger> inRoutePerKey = new ConcurrentHashMap<>();
        AtomicInteger maxSameKeyAtOnce = new AtomicInteger();
        Recorder recorder = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, "ordering=KEY&maxConcurrency=8&maxPollRecords=50"))
                        .process(recorder.measuring(exchange -> {
                            String key = exchange.getMessage().getHeader(KafkaFetchShareConstants.KEY, String.class);
                            AtomicInteger n = inRoutePerKey.computeIfAbsent(key, k -> new AtomicInteger());
                            maxSameKeyAtOnce.accumulateAndGet(n.incrementAndGet(), Math::max);
                            try {
                                Thread.sleep(5);
                            } finally {
                                n.decrementAndGet();
                            }
                        })).process(recorder);
            }
        });
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(maxSameKeyAtOnce.get()).as("records of one key in the route at once").isEqualTo(1);
        assertThat(recorder.maxConcurrent()).as("records of different keys in the route at once").isGreaterThan(1);
    }
}
