package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pause survives a rebalance: partitions assigned to a suspended consumer (here when a second member joins and
 * leaves) are paused too, so nothing is delivered until it resumes; then everything arrives, lost = 0.
 */
class PauseSurvivesRebalanceIT extends KafkaFetchITSupport {

    @Test
    void partitionsAssignedWhilePausedStayPaused() throws Exception {
        String topic = KafkaTestSupport.uniqueName("pausereb");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        Recorder paused = new Recorder();
        CamelContext a = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "pollTimeoutMs=200")).routeId("a").process(paused);
            }
        });
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) a.getRoute("a").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> consumerA.taskSnapshots().get(0).partitions().size() == 4);
        a.getRouteController().suspendRoute("a");
        await().atMost(Duration.ofSeconds(10)).until(() -> consumerA.taskSnapshots().get(0).state().equals("PAUSED"));
        int rebalancesBefore = (int) consumerA.taskSnapshots().get(0).rebalances();

        // a second member joins (A gives partitions away) and leaves (A gets them back, while paused)
        Recorder other = new Recorder();
        CamelContext b = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "pollTimeoutMs=200")).routeId("b").process(other);
            }
        });
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) b.getRoute("b").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> !consumerB.taskSnapshots().isEmpty()
                                                           && consumerB.taskSnapshots().get(0).partitions().size() > 0);
        b.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> consumerA.taskSnapshots().get(0).partitions().size() == 4
                                                           && consumerA.taskSnapshots().get(0).rebalances()
                                                              > rebalancesBefore + 1);
        assertThat(consumerA.taskSnapshots().get(0).partitions()).allMatch(p -> "user".equals(p.pausedReason()));

        long polledBefore = consumerA.taskSnapshots().get(0).recordsPolled();
        long pollsBefore = consumerA.taskSnapshots().get(0).polls();
        List<String> produced = kafka.produceIds(topic, 400, "pr", 8);
        await().atMost(Duration.ofSeconds(10)).until(() -> consumerA.taskSnapshots().get(0).polls() > pollsBefore + 5);
        // the newly assigned partitions are paused in the consumer itself: nothing is even fetched
        assertThat(consumerA.taskSnapshots().get(0).recordsPolled()).isEqualTo(polledBefore);
        assertThat(paused.count()).as("delivered while suspended after the rebalance").isZero();

        a.getRouteController().resumeRoute("a");
        awaitCount(paused, produced.size(), Duration.ofSeconds(60));
        List<String> all = new ArrayList<>(paused.ids());
        all.addAll(other.ids());
        assertThat(paused.lost(produced)).isEmpty();
        assertThat(paused.duplicates()).isEmpty();
        assertThat(all).isNotEmpty();
    }
}
