package dev.kafkafetch.it;

import java.time.Duration;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
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
        List<String> produced = kafka.produceIds(topic, 900, "c", 30);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "consumersCount=" + tasks)).routeId("r")
                        .process(recorder);
            }
        });
        awaitCount(recorder, produced.size(), Duration.ofSeconds(60));
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<TaskSnapshot> snapshots = consumer.taskSnapshots();
            assertThat(snapshots).hasSize(tasks);
            assertThat(snapshots).allMatch(s -> s.state().equals("RUNNING"));
            assertThat(snapshots.stream().mapToInt(s -> s.partitions().size()).sum()).isEqualTo(partitions);
            assertThat(snapshots).allMatch(s -> s.partitions().size() <= 1);
            assertThat(snapshots).allMatch(s -> s.lastError() == null);
        });
        // a distinct thread per task did the polling: records of different partitions came from different tasks
        assertThat(consumer.taskSnapshots().stream().filter(s -> s.recordsFinished() > 0)).hasSize(partitions);
    }
}
