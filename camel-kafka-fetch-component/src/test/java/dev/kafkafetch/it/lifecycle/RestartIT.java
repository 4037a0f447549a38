package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping a route commits what it finished: after a restart nothing finished before the stop is delivered again,
 * and nothing is lost.
 */
class RestartIT extends KafkaFetchITSupport {

    @Test
    void restartDeliversOnlyWhatWasNotFinished() throws Exception {
        String topic = KafkaTestSupport.uniqueName("restart");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        List<String> first = kafka.produceIds(topic, 1500, "r1", 15);
        Recorder recorder = new Recorder();
        RouteBuilder routes = new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "autoCommitIntervalMs=60000&finishedCommitIntervalMs=0")).routeId("r")
                        .process(recorder);
            }
        };
        CamelContext context = startContext(routes);
        awaitCount(recorder, first.size(), Duration.ofSeconds(60));
        context.getRouteController().stopRoute("r");
        // the interval is a minute: only the stop can have committed
        assertThat(kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(1500);

        List<String> second = kafka.produceIds(topic, 900, "r2", 15);
        int seenBefore = recorder.count();
        context.getRouteController().startRoute("r");
        await().atMost(Duration.ofSeconds(60)).until(() -> recorder.count() >= seenBefore + second.size());
        // give a duplicate time to show up
        Thread.sleep(500);

        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        assertThat(recorder.lost(all)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        assertThat(recorder.count()).isEqualTo(all.size());
    }
}
