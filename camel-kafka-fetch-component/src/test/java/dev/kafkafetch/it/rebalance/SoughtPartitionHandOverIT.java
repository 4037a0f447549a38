package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A partition {@code seekTo=END} put at its end and handed to another member before anything was polled from it starts
 * there for the new owner, with each protocol: the group has no committed offset (a new group, autoOffsetReset
 * earliest), member A seeks both partitions to their end past a backlog, member B (a member without seekTo, as one of an
 * earlier deploy) joins, and the partition it takes starts at the end A sought, not at the backlog's first record. No
 * commit is due on an interval, so the sought offset reaches B through A's revoke. Found by the soak (seed
 * 6379781183978619373): without it B routes the whole backlog of its partition.
 */
class SoughtPartitionHandOverIT extends KafkaFetchITSupport {

    private static final String NO_COMMIT_DUE = "autoCommitIntervalMs=60000&finishedCommitIntervalMs=0";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "partitionAssignor=org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        "groupProtocol=consumer" })
    void aPartitionSoughtToItsEndStartsThereForItsNextOwner(String protocol) throws Exception {
        String topic = KafkaTestSupport.uniqueName("sought-handover");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> backlog = kafka.produceIds(topic, 40, "backlog", 8);
        Recorder routedByA = new Recorder();
        CamelContext a = startContext(route("a", topic, group, "seekTo=END&" + protocol, routedByA));
        await().atMost(Duration.ofSeconds(60)).until(() -> partitions(a, "a").size() == 2
                                                           && partitions(a, "a").stream()
                                                                   .allMatch(p -> p.lag() == 0));
        assertThat(kafka.endOffsets(topic).values()).as("a backlog in both partitions").allMatch(end -> end > 0);
        assertThat(routedByA.ids()).as("routed by A (seekTo=END skips the backlog)").isEmpty();

        Recorder routedByB = new Recorder();
        CamelContext b = startContext(route("b", topic, group, protocol, routedByB));
        await().atMost(Duration.ofSeconds(60)).until(() -> partitions(b, "b").size() == 1
                                                           && partitions(a, "a").size() == 1);
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        int handedOver = partitions(b, "b").get(0).partition();
        assertThat(kafka.committedOffsets(group, topic).get(new TopicPartition(topic, handedOver)))
                .as("partition %d committed at the end A sought when it was revoked", handedOver)
                .isEqualTo(end.get(new TopicPartition(topic, handedOver)));

        List<String> fresh = kafka.produceIds(topic, 40, "fresh", 8);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> routedByA.ids().size() + routedByB.ids().size() >= fresh.size());
        assertThat(routedByB.ids()).as("backlog routed by B").doesNotContainAnyElementsOf(backlog);
        assertThat(routedByA.ids()).as("backlog routed by A").doesNotContainAnyElementsOf(backlog);
        assertThat(fresh).as("fresh records lost").allMatch(
                id -> routedByA.ids().contains(id) || routedByB.ids().contains(id));
        assertThat(routedByA.duplicates()).isEmpty();
        assertThat(routedByB.duplicates()).isEmpty();
    }

    private static RouteBuilder route(String id, String topic, String group, String options, Recorder recorder) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, NO_COMMIT_DUE + "&" + options)).routeId(id).process(recorder);
            }
        };
    }

    private static List<PartitionSnapshot> partitions(CamelContext context, String route) {
        List<TaskSnapshot> tasks = ((KafkaFetchConsumer) context.getRoute(route).getConsumer()).taskSnapshots();
        return tasks.stream().flatMap(t -> t.partitions().stream()).toList();
    }
}
