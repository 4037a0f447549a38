package dev.kafkafetch.it.commit;

import java.time.Duration;
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
 * Finished records are committed soon after they finish ({@code finishedCommitIntervalMs}, 500 ms by default), while
 * the route keeps running and although {@code autoCommitIntervalMs} is a minute: what a crash can re-deliver is little
 * more than what was in flight. With {@code finishedCommitIntervalMs=0} only the interval commits, as camel-kafka does.
 */
class FinishedCommitIT extends KafkaFetchITSupport {

    @Test
    void finishedRecordsAreCommittedSoonWhileTheRouteRuns() throws Exception {
        String topic = KafkaTestSupport.uniqueName("finished-commit");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 400, "fc", 10);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(routeOf(topic, group, "autoCommitIntervalMs=60000", recorder));
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum())
                .as("committed while the route runs").isEqualTo(produced.size()));
        assertThat(consumer(context).taskSnapshots()).as("the route still runs: no stop committed").allSatisfy(
                s -> assertThat(s.state()).isEqualTo("RUNNING"));
        assertThat(recorder.lost(produced)).isEmpty();
    }

    @Test
    void zeroCommitsOnlyOnTheInterval() throws Exception {
        String topic = KafkaTestSupport.uniqueName("interval-commit");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(routeOf(topic, group,
                "autoCommitIntervalMs=60000&finishedCommitIntervalMs=0&pollTimeoutMs=500", recorder));
        // the records come after the first interval commit (made on the task's first turns), so none is due after it
        // (once, on a loaded machine, the first turn came only after all 400 records had finished)
        await().atMost(Duration.ofSeconds(60)).until(() -> consumer(context).taskSnapshots().get(0).partitions()
                .size() == 2 && consumer(context).taskSnapshots().get(0).polls() >= 3);
        List<String> produced = kafka.produceIds(topic, 400, "ic", 10);
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        // every record finished well within the minute, and the first interval commit found nothing finished yet
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer(context).taskSnapshots().get(0).recordsFinished()
                                                           == produced.size());
        assertThat(consumer(context).taskSnapshots().get(0).commits()).as("commits before the interval")
                .isLessThanOrEqualTo(1);
        assertThat(kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum())
                .as("committed before the interval").isLessThan(produced.size());
        assertThat(recorder.lost(produced)).isEmpty();
    }

    private static RouteBuilder routeOf(String topic, String group, String options, Recorder recorder) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("r").process(recorder);
            }
        };
    }

    private static KafkaFetchConsumer consumer(CamelContext context) {
        return (KafkaFetchConsumer) context.getRoute("r").getConsumer();
    }
}
