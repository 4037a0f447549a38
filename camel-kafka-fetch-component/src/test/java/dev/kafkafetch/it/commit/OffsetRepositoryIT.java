package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.processor.state.MemoryStateRepository;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code offsetRepository} as camel-kafka users know it, with kafka-fetch's guarantee: the repository is written in
 * camel-kafka's format ({@code topic/partition} → last finished offset) only with committed offsets, so across a
 * restart of parallel, slow processing it never names a record that was not finished; a new consumer (a group with no
 * Kafka commits and {@code autoOffsetReset=latest}) starts each partition right after the repository's value and
 * nothing is lost.
 */
class OffsetRepositoryIT extends KafkaFetchITSupport {

    @Test
    void repositoryNeverPassesUnfinishedWorkAndARestartResumesFromIt() throws Exception {
        String topic = KafkaTestSupport.uniqueName("repo");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 400, "r", 40);
        MemoryStateRepository repo = new MemoryStateRepository();
        repo.start(); // a repository the consumer did not start outlives it (one it started, it stops, as camel-kafka)

        Recorder first = new Recorder();
        CamelContext one = newContext();
        one.getRegistry().bind("repo", repo);
        one.addRoutes(route(uri(topic, KafkaTestSupport.uniqueName("g"),
                "offsetRepository=#repo&maxConcurrency=8&ordering=KEY&autoCommitIntervalMs=100"), first, 5));
        one.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> first.offsetsByPartition().values().stream()
                .filter(offsets -> offsets.size() >= 40).count() == 2);
        one.stop(); // a restart in the middle of the topic
        Map<Integer, String> before = new HashMap<>();
        for (int p = 0; p < 2; p++) {
            before.put(p, repo.getState(topic + "/" + p));
        }
        assertThat(before.values()).as("the first consumer committed both partitions").doesNotContainNull();

        // every offset up to the repository's value was finished by the first consumer
        Map<Integer, List<Long>> seen = first.offsetsByPartition();
        for (int p = 0; p < 2; p++) {
            String value = before.get(p);
            Set<Long> finished = new HashSet<>(seen.getOrDefault(p, List.of()));
            for (long o = 0; o <= Long.parseLong(value); o++) {
                assertThat(finished).as("partition %d offset %d below the repository's %s", p, o, value).contains(o);
            }
        }

        Recorder second = new Recorder();
        CamelContext two = newContext();
        two.getRegistry().bind("repo", repo);
        // a group with no commit, starting at the end unless the repository says otherwise
        two.addRoutes(
                route(uri(topic, KafkaTestSupport.uniqueName("g"), "offsetRepository=#repo&autoOffsetReset=latest"),
                        second, 0));
        two.start();
        Set<String> union = new HashSet<>(first.ids());
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Set<String> all = new HashSet<>(union);
            all.addAll(second.ids());
            return all.containsAll(produced);
        });
        for (int p = 0; p < 2; p++) {
            List<Long> offsets = second.offsetsByPartition().getOrDefault(p, List.of());
            long held = Long.parseLong(before.get(p));
            if (!offsets.isEmpty()) {
                assertThat(offsets).as("partition %d starts right after the repository", p).allMatch(o -> o > held)
                        .contains(held + 1);
            }
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(repo.getState(topic + "/0")).isEqualTo(Long.toString(kafka.endOffsets(topic).entrySet()
                    .stream().filter(e -> e.getKey().partition() == 0).findFirst().orElseThrow().getValue() - 1));
        });
    }

    @Test
    void aValueWrittenByCamelKafkaStartsThePartitionRightAfterIt() throws Exception {
        String topic = KafkaTestSupport.uniqueName("repo");
        kafka.createTopic(topic, 2);
        for (int i = 0; i < 20; i++) {
            kafka.produce(topic, 0, null, "p0-" + i, null);
            kafka.produce(topic, 1, null, "p1-" + i, null);
        }
        MemoryStateRepository repo = new MemoryStateRepository();
        repo.setState(topic + "/0", "9");
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("repo", repo);
        context.addRoutes(route(uri(topic, KafkaTestSupport.uniqueName("g"), "offsetRepository=#repo"), recorder, 0));
        context.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> recorder.count() >= 30);
        assertThat(recorder.offsetsByPartition().get(0)).first().isEqualTo(10L);
        assertThat(recorder.offsetsByPartition().get(0)).hasSize(10);
        assertThat(recorder.offsetsByPartition().get(1)).first().isEqualTo(0L);
        await().atMost(Duration.ofSeconds(30)).until(() -> "19".equals(repo.getState(topic + "/0"))
                                                           && "19".equals(repo.getState(topic + "/1")));
    }

    private static RouteBuilder route(String uri, Recorder recorder, long sleepMs) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> Thread.sleep(sleepMs)).process(recorder);
            }
        };
    }
}
