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
 * A revoke commits everything its task finished, with each protocol: no interval commit is due (a one-minute
 * {@code autoCommitIntervalMs}, {@code finishedCommitIntervalMs=0}), member A has finished all of its records when
 * member B joins, and the partitions A hands to B are committed at their end by A's revoke, so B routes none of them
 * again. Without that commit B would route them all a second time.
 */
class RevokeCommitsFinishedIT extends KafkaFetchITSupport {

    /** No interval commit due; short polls, so that awaiting a few polls takes a second, not fifteen. */
    private static final String NO_COMMIT_DUE = "autoCommitIntervalMs=60000&finishedCommitIntervalMs=0&pollTimeoutMs=500";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "maxConcurrency=1",
        "maxConcurrency=8&ordering=UNORDERED&partitionAssignor=org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        "maxConcurrency=4&ordering=KEY&groupProtocol=consumer" })
    void partitionsHandedOverAreCommittedByTheRevoke(String options) throws Exception {
        String topic = KafkaTestSupport.uniqueName("revoke-commit");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 4);
        Recorder routedByA = new Recorder();
        CamelContext a = startContext(route("a", topic, group, options, routedByA));
        // the records come after A's first interval commit (made on its first turns), so none is due before B joins
        await().atMost(Duration.ofSeconds(60)).until(() -> partitions(a, "a").size() == 4 && polls(a, "a") >= 3);
        List<String> produced = kafka.produceIds(topic, 400, "rc", 40);
        awaitCount(routedByA, produced.size(), Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> finished(a, "a") == produced.size());
        assertThat(committedSum(group, topic)).as("committed before the revoke (no commit may be due yet)")
                .isLessThan(produced.size());

        Recorder routedByB = new Recorder();
        CamelContext b = startContext(route("b", topic, group, options, routedByB));
        await().atMost(Duration.ofSeconds(60)).until(() -> !partitions(b, "b").isEmpty());
        // B holds partitions A finished: the revoke committed them at their end
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group, topic);
        for (int p : partitions(b, "b")) {
            TopicPartition tp = new TopicPartition(topic, p);
            assertThat(committed.get(tp)).as("partition %d committed when it was revoked from A", p)
                    .isEqualTo(end.get(tp));
        }
        long polledByB = polls(b, "b");
        await().atMost(Duration.ofSeconds(30)).until(() -> polls(b, "b") >= polledByB + 3);
        assertThat(routedByB.ids()).as("routed again by B").isEmpty();
        assertThat(routedByA.lost(produced)).isEmpty();
        assertThat(routedByA.duplicates()).isEmpty();
    }

    private static RouteBuilder route(String id, String topic, String group, String options, Recorder recorder) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, NO_COMMIT_DUE + "&" + options)).routeId(id).process(recorder);
            }
        };
    }

    private static List<TaskSnapshot> tasks(CamelContext context, String route) {
        return ((KafkaFetchConsumer) context.getRoute(route).getConsumer()).taskSnapshots();
    }

    private static long finished(CamelContext context, String route) {
        return tasks(context, route).stream().mapToLong(TaskSnapshot::recordsFinished).sum();
    }

    private static long polls(CamelContext context, String route) {
        return tasks(context, route).stream().mapToLong(TaskSnapshot::polls).sum();
    }

    private static List<Integer> partitions(CamelContext context, String route) {
        return tasks(context, route).stream().flatMap(t -> t.partitions().stream())
                .map(PartitionSnapshot::partition).toList();
    }

    private static long committedSum(String group, String topic) {
        return kafka.committedOffsets(group, topic).values().stream().mapToLong(Long::longValue).sum();
    }
}
