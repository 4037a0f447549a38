package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code consumersPerWindow=2}: one member's two share consumers feed one window. While the window's records run (a
 * route held on a latch), the member's other consumer acquires its own poll, so the member holds two polls' worth
 * while no more than maxConcurrency records are in the route; once released every record is routed exactly once.
 * With one consumer per window the member would hold one poll (maxPollRecords) and wait for it to finish.
 */
class ShareWindowConsumersIT extends ShareITSupport {

    @Test
    void theOtherConsumerAcquiresWhileTheWindowRunsAndTheWindowStaysBounded() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-window");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0);
        List<String> produced = kafka.produceIds(topic, 40, "k", 40);
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(shareUri(topic, group, "consumersCount=1&maxConcurrency=2&consumersPerWindow=2"))
                        .process(recorder.measuring(exchange -> release.await(60, TimeUnit.SECONDS)))
                        .process(recorder);
            }
        });
        KafkaFetchShareConsumer consumer = shareConsumer(context);
        int maxPollRecords = consumer.getSettings().maxPollRecords();
        assertThat(maxPollRecords).as("default: 2 x maxConcurrency over the two consumers").isEqualTo(2);
        assertThat(consumer.tasks()).as("two share consumers for the one member").hasSize(2);

        // the premise: both consumers hold a poll at once, one poll's records running and the other's waiting
        await().atMost(Duration.ofSeconds(60)).until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) == 2L
                                                                                                                  * maxPollRecords);
        List<ShareSnapshot> holding = consumer.shareSnapshots();
        System.out.printf("window consumers: held per consumer=%s peak in route=%d%n",
                holding.stream().map(ShareSnapshot::held).toList(), recorder.maxConcurrent());
        assertThat(holding).allSatisfy(s -> assertThat(s.held()).isEqualTo(maxPollRecords));
        assertThat(recorder.maxConcurrent()).as("records in the route at once: one window of 2").isEqualTo(2);

        release.countDown();
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(recorder.maxConcurrent()).as("never above maxConcurrency").isLessThanOrEqualTo(2);
        assertThat(consumer.shareSnapshots()).as("both consumers acquired").allSatisfy(s -> assertThat(s.acquired())
                .isGreaterThan(0));
    }
}
