package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.ShareFetchTask;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping a share route, then starting it again: the records running at the stop finish and are accepted (the
 * restarted route never gets them), the ones acquired but not started are released at once (the restarted route gets
 * them long before their 30 s lock could have run out, as a second delivery); lost 0. Counted over the window's share
 * consumers (two by default), whichever of them acquired the records.
 */
class ShareGracefulStopIT extends ShareITSupport {

    @Test
    void stopAcceptsWhatRunsAndReleasesTheRest() throws Exception {
        String topic = KafkaTestSupport.uniqueName("share-stop");
        String group = KafkaTestSupport.uniqueName("sg");
        kafka.createTopic(topic, 1);
        prepareGroup(group, 0); // the broker's 30 s lock
        List<String> produced = kafka.produceIds(topic, 10, "k", 10);
        Set<String> started = ConcurrentHashMap.newKeySet();
        Recorder first = new Recorder();
        String uri = shareUri(topic, group, "maxPollRecords=10&maxConcurrency=2");
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(exchange -> {
                    started.add(exchange.getMessage().getBody(String.class));
                    Thread.sleep(2000);
                }).process(first);
            }
        });
        List<ShareFetchTask> tasks = shareConsumer(context).tasks();
        await().atMost(Duration.ofSeconds(30)).until(() -> started.size() == 2);
        Set<String> runningAtStop = new HashSet<>(started);
        long stopAt = System.currentTimeMillis();
        context.stop();
        // the window's consumers (two by default) together: whichever acquired a record accounts for it
        List<ShareSnapshot> stopped = tasks.stream().map(ShareFetchTask::shareSnapshot).toList();
        System.out.printf("share stop: running at stop %s, finished %s, stop took %d ms, snapshots %s%n",
                runningAtStop, first.ids(), System.currentTimeMillis() - stopAt, stopped);
        assertThat(first.ids()).isEqualTo(runningAtStop);
        assertThat(sum(stopped, ShareSnapshot::accepted)).as("accepted").isEqualTo(2);
        assertThat(sum(stopped, ShareSnapshot::released)).as("released").isEqualTo(8);
        assertThat(sum(stopped, ShareSnapshot::held)).as("held").isZero();

        Recorder second = new Recorder();
        long restartAt = System.currentTimeMillis();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(second);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> second.ids().size() >= 8);
        long redeliveredAfter = System.currentTimeMillis() - restartAt;
        Thread.sleep(3000); // an accepted record would have come by now, a released one has
        Set<String> all = new HashSet<>(first.ids());
        all.addAll(second.ids());
        System.out.printf("share restart: %d released records back after %d ms, delivery counts %s%n",
                second.ids().size(), redeliveredAfter,
                second.all().stream().map(s -> s.headers().get(KafkaFetchShareConstants.DELIVERY_COUNT)).toList());
        assertThat(all).containsExactlyInAnyOrderElementsOf(produced);
        assertThat(second.ids()).doesNotContainAnyElementsOf(runningAtStop).hasSize(8);
        assertThat(second.duplicates()).isEmpty();
        assertThat(second.all()).allSatisfy(s -> assertThat(
                (Integer) s.headers().get(KafkaFetchShareConstants.DELIVERY_COUNT)).isGreaterThanOrEqualTo(1));
    }
}
