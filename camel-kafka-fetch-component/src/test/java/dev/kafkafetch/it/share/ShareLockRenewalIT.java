package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record that runs 3.5 times longer than the group's acquisition lock (2 s) while two other members keep polling
 * the same partition: its lock is renewed, so it is routed once and never by two members at once; every other record
 * is routed once too (lost 0), and no lock is lost.
 */
class ShareLockRenewalIT extends ShareITSupport {

    @Test
    void slowRecordKeepsItsLock() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-renew");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 2000);
        List<String> produced = kafka.produceIds(topic, 60, "k", 10);
        String slow = produced.get(3);
        Map<String, AtomicInteger> inRoute = new ConcurrentHashMap<>();
        AtomicInteger slowEntries = new AtomicInteger();
        AtomicInteger slowMaxAtOnce = new AtomicInteger();
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, "consumersCount=3&maxPollRecords=5&maxConcurrency=2")).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    AtomicInteger now = inRoute.computeIfAbsent(id, k -> new AtomicInteger());
                    int at = now.incrementAndGet();
                    try {
                        if (id.equals(slow)) {
                            slowEntries.incrementAndGet();
                            slowMaxAtOnce.accumulateAndGet(at, Math::max);
                            Thread.sleep(7000);
                        } else {
                            Thread.sleep(20);
                        }
                    } finally {
                        now.decrementAndGet();
                    }
                }).process(recorder);
            }
        });
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        awaitCount(recorder, produced.size(), Duration.ofSeconds(40));
        Thread.sleep(2500); // past another lock duration: a lost lock would show as a second delivery
        List<ShareSnapshot> shares = consumer.shareSnapshots();
        System.out.printf("share renew: slowEntries=%d renewed=%d lockLost=%d lock=%d shares=%s%n", slowEntries.get(),
                sum(shares, ShareSnapshot::renewed), sum(shares, ShareSnapshot::lockLost),
                shares.get(0).lockDurationMs(),
                shares);

        assertThat(slowEntries.get()).as("deliveries of the slow record").isEqualTo(1);
        assertThat(slowMaxAtOnce.get()).isEqualTo(1);
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(sum(shares, ShareSnapshot::renewed)).isPositive();
        assertThat(sum(shares, ShareSnapshot::lockLost)).isZero();
        assertThat(sum(shares, ShareSnapshot::acknowledgementFailures)).isZero();
        assertThat(shares).allSatisfy(s -> assertThat(s.deliveryCounts()).hasSizeLessThanOrEqualTo(1));
    }
}
