package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Manual commits called from another thread (after a seda hop) are carried out by the fetch thread, without a
 * ConcurrentModificationException; what was not committed is delivered again after a restart.
 */
class ManualCommitIT extends KafkaFetchITSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "sync", "async", "sync-parallel" })
    void commitFromAnotherThreadAndRedeliverTheRest(String mode) throws Exception {
        String topic = KafkaTestSupport.uniqueName("manual");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 100, "m", 5);
        String factory = mode.equals("async")
                ? "&kafkaManualCommitFactory=#class:dev.kafkafetch.commit.DefaultKafkaManualAsyncCommitFactory" : "";
        Recorder seen = new Recorder();
        Recorder committedBy = new Recorder();
        // in parallel, records reach the seda consumer out of order: a commit is held back while an earlier record
        // is unfinished, and goes through once it finishes
        String parallel = mode.endsWith("parallel") ? "&maxConcurrency=8&ordering=UNORDERED" : "";
        String uri = uri(topic, group, "autoCommitEnable=false&allowManualCommit=true" + factory + parallel);
        CamelContext first = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("r").process(seen).to("seda:later?waitForTaskToComplete=Never");
                from("seda:later").process(e -> {
                    long offset = e.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class);
                    if (offset < 60) {
                        e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT, KafkaManualCommit.class).commit();
                    }
                }).process(committedBy);
            }
        });
        awaitCount(seen, 100, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(20)).until(() -> committedBy.count() == 100);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(Map.of(new TopicPartition(topic, 0), 60L)));
        assertThat(seen.all()).allMatch(s -> s.headers().get(KafkaFetchConstants.MANUAL_COMMIT) != null);
        // camel-kafka's commit headers: the last record of its partition in a poll, the last record of a poll
        assertThat(seen.all())
                .anyMatch(s -> Boolean.TRUE.equals(s.headers().get(KafkaFetchConstants.LAST_POLL_RECORD)));
        assertThat(seen.all().stream().filter(s -> s.offset() == 99).findFirst().orElseThrow().headers())
                .containsEntry(KafkaFetchConstants.LAST_RECORD_BEFORE_COMMIT, true)
                .containsEntry(KafkaFetchConstants.LAST_POLL_RECORD, true);
        assertThat(seen.all()).allMatch(s -> s.headers().get(KafkaFetchConstants.LAST_RECORD_BEFORE_COMMIT) != null);
        first.stop();

        Recorder again = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(again);
            }
        });
        awaitCount(again, 40, Duration.ofSeconds(30));
        Thread.sleep(300);
        assertThat(again.ids()).containsExactlyInAnyOrderElementsOf(produced.subList(60, 100));
        assertThat(again.duplicates()).isEmpty();
    }
}
