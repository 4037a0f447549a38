package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route that throws for some records: nothing after them is lost, and whether a failed exchange counts as finished
 * follows Camel's error handler (handled = finished, committed; unhandled without dead-letter topic = logged, skipped).
 */
class FailingRouteIT extends KafkaFetchITSupport {

    @Test
    void unhandledFailuresAreLoggedAndSkippedNothingAfterIsLost() throws Exception {
        String topic = KafkaTestSupport.uniqueName("fail");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 500, "f", 10);
        Recorder recorder = new Recorder();
        Set<String> thrown = ConcurrentHashMap.newKeySet();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "")).process(exchange -> {
                    String id = exchange.getMessage().getBody(String.class);
                    if (id.endsWith("7")) {
                        thrown.add(id);
                        throw new IllegalStateException("boom " + id);
                    }
                }).process(recorder);
            }
        });
        await().atMost(Duration.ofSeconds(60))
                .until(() -> recorder.count() + thrown.size() >= produced.size());
        assertThat(thrown).hasSize(50);
        assertThat(recorder.lost(produced)).containsExactlyInAnyOrderElementsOf(thrown);
        // failed records count as finished: the group commits past them
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
    }

    @Test
    void handledFailuresAreFinished() throws Exception {
        String topic = KafkaTestSupport.uniqueName("handled");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 300, "h", 10);
        Recorder handled = new Recorder();
        Recorder ok = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalStateException.class).handled(true).process(handled);
                from(uri(topic, group, "")).process(exchange -> {
                    if (exchange.getMessage().getBody(String.class).endsWith("3")) {
                        throw new IllegalStateException("boom");
                    }
                }).process(ok);
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> handled.count() + ok.count() >= produced.size());
        assertThat(handled.count()).isEqualTo(30);
        assertThat(handled.ids()).allMatch(id -> id.endsWith("3"));
        assertThat(ok.lost(produced)).containsExactlyInAnyOrderElementsOf(handled.ids());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
    }
}
