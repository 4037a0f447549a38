package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Synchronous manual commits called inside a parallel route never deadlock: a commit() that cannot cover its record
 * yet (an earlier record of the partition is unfinished, perhaps still waiting for a worker thread that every other
 * record holds while it commits) returns once what may be committed now is, and the rest is committed as soon as the
 * earlier records finish.
 */
class SyncManualCommitInParallelIT extends KafkaFetchITSupport {

    @Test
    void workersBlockedInCommitDoNotStarveTheRecordTheyWaitFor() throws Exception {
        String topic = KafkaTestSupport.uniqueName("syncpar");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        // key a: offsets 0 (slow) and 1; then one record per key, which take every other worker and commit at once
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = "s-" + i;
            kafka.produce(topic, 0, i < 2 ? "a" : "k" + i, id, Map.of());
            produced.add(id);
        }
        Recorder ok = new Recorder();
        Recorder failed = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).process(failed);
                from(uri(topic, group, "allowManualCommit=true&autoCommitEnable=false&maxConcurrency=2&ordering=KEY"
                                       + "&commitTimeoutMs=60000"))
                        .routeId("r")
                        .process(e -> {
                            if (e.getMessage().getHeader(KafkaFetchConstants.OFFSET, Long.class) == 0) {
                                Thread.sleep(300);
                            }
                            e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT, KafkaManualCommit.class)
                                    .commit();
                        })
                        .process(ok);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> ok.ids().containsAll(produced));
        assertThat(failed.all()).isEmpty();
        assertThat(ok.duplicates()).isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(Map.of(new TopicPartition(topic, 0), 40L)));
    }
}
