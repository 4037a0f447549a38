package dev.kafkafetch.it.dispatch;

import java.time.Duration;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** consumersCount fetch tasks share the partitions; tasks beyond the partition count idle without errors. */
class ConsumersCountIT extends KafkaFetchITSupport {

    @Test
    void threeTasksOnThreePartitionsOwnOneEach() throws Exception {
        run(3, 3);
    }

    @Test
    void extraTasksIdleWithoutErrors() throws Exception {
        run(5, 3);
    }

    private void run(int tasks, int partitions) throws Exception {
        String topic = KafkaTestSupport.uniqueName("count");
        kafka.createTopic(topic, partitions);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "consumersCount=" + tasks)).routeId("r")
                        .process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        // the group settles: every partition assigned, no task with more than one
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<TaskSnapshot> snapshots = consumer.taskSnapshots();
            assertThat(snapshots).hasSize(tasks);
            assertThat(snapshots).allMatch(s -> s.state().equals("RUNNING"));
            assertThat(snapshots.stream().mapToInt(s -> s.partitions().size()).sum()).isEqualTo(partitions);
            assertThat(snapshots).allMatch(s -> s.partitions().size() <= 1);
        });
        List<String> produced = kafka.produceIds(topic, 900, "c", 30);
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        List<TaskSnapshot> snapshots = consumer.taskSnapshots();
        assertThat(snapshots).allMatch(s -> s.lastError() == null);
        // each partition's records were polled by the one task that owns it; the extra tasks idle
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(consumer.taskSnapshots().stream()
                .filter(s -> s.recordsFinished() > 0)).hasSize(partitions));
        assertThat(consumer.taskSnapshots().stream().filter(s -> s.partitions().isEmpty()))
                .allMatch(s -> s.recordsPolled() == 0).hasSize(tasks - partitions);
    }
}
