package dev.kafkafetch.it.ops;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.deadletter.DeadLetter;
import dev.kafkafetch.deadletter.DeadLetterFilter;
import dev.kafkafetch.deadletter.DeadLetterTopic;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.task.OperatorActionRefusedException;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Dead letters browsed and replayed (operatorActions=true): a route dead-letters the records it cannot handle; the
 * letters are listed with their provenance, filtered by original partition; "the bug is fixed" and a replay of that
 * selection, while the route consumes a stream of new records, puts exactly those letters back on the source topic
 * with replay headers and the route processes them; a second replay of the same selection (read back from the replay
 * log topic, by a facade of its own) replays nothing and says so. Lost = 0, nothing twice.
 */
class ReplayDeadLettersIT extends KafkaFetchITSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** New records consumed while the replay runs: at 5 ms each on two partitions, about 2.5 s of work. */
    private static final int LIVE = 1000;

    @Test
    void aFilteredReplayPutsExactlyThoseLettersBackOnceWhileTheRouteConsumes() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opreplay");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        Set<String> failing = ConcurrentHashMap.newKeySet();
        Recorder seen = new Recorder();
        CamelContext ctx = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "operatorActions=true&pollTimeoutMs=200&deadLetterTopic=" + dlt))
                        .routeId("r").process(e -> {
                            String id = e.getMessage().getBody(String.class);
                            if (failing.contains(id)) {
                                throw new IllegalStateException("cannot handle " + id + " yet");
                            }
                            Thread.sleep(id.startsWith("id-live") ? 5 : 1);
                        }).process(seen);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("r").getConsumer();
        await().atMost(TIMEOUT).until(() -> PartitionPauseIT.task(consumer).partitions().size() == 2);
        List<String> good = kafka.produceIds(topic, 30, "good", 4);
        List<String> bad0 = List.of("id-bad-p0-1", "id-bad-p0-2", "id-bad-p0-3");
        List<String> bad1 = List.of("id-bad-p1-1", "id-bad-p1-2");
        failing.addAll(bad0);
        failing.addAll(bad1);
        bad0.forEach(id -> kafka.produce(topic, 0, "kb", id, null));
        bad1.forEach(id -> kafka.produce(topic, 1, "kb", id, null));
        DeadLetters.awaitRecords(kafka, dlt, 5, TIMEOUT);
        awaitCount(seen, good.size(), TIMEOUT);

        // browse: every letter with its provenance; the filter takes partition 0's only
        List<DeadLetter> all = consumer.operatorActions().listDeadLetters(DeadLetterFilter.ALL);
        assertThat(all).hasSize(5).allSatisfy(l -> {
            assertThat(l.originalTopic()).isEqualTo(topic);
            assertThat(l.reason()).isEqualTo("failed");
            assertThat(l.exceptionClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(l.attempts()).isEqualTo(1);
            assertThat(l.key()).isEqualTo("kb");
        });
        DeadLetterFilter p0 = DeadLetterFilter.parse("topic=" + topic + ",partition=0,reason=failed");
        List<DeadLetter> selected = consumer.operatorActions().listDeadLetters(p0);
        assertThat(selected).hasSize(3).allMatch(l -> l.originalPartition() == 0);
        assertThat(consumer.listDeadLetters("exception=cannot handle id-bad-p1-2")).startsWith("1 letter(s)");

        // the bug is fixed; the replay runs while the route consumes a stream of new records
        failing.clear();
        CompletableFuture<List<String>> live = CompletableFuture
                .supplyAsync(() -> kafka.produceIds(topic, LIVE, "live", 6));
        await().atMost(TIMEOUT).until(() -> seen.count() > good.size());
        DeadLetterTopic.ReplayResult first = consumer.operatorActions().replayDeadLetters(p0, null, "the test");
        assertThat(first.replayed()).containsExactlyElementsOf(selected.stream().map(DeadLetter::id).toList());
        assertThat(first.alreadyReplayed()).isEmpty();
        assertThat(first.summary()).contains("replayed 3 to their original topics");
        assertThat(seen.count()).as("the route was consuming during the replay")
                .isLessThan(good.size() + LIVE + bad0.size());

        List<String> produced = new ArrayList<>(good);
        produced.addAll(live.get());
        produced.addAll(bad0);
        await().atMost(TIMEOUT).until(() -> seen.ids().containsAll(produced));
        assertThat(seen.ids()).as("partition 1's letters were not replayed").doesNotContainAnyElementsOf(bad1);
        for (Recorder.Seen s : seen.all()) {
            if (bad0.contains(s.id())) {
                assertThat(s.partition()).as("back on its own partition").isZero();
                assertThat(text(s.headers().get(DeadLetterTopic.REPLAY_LETTER))).startsWith(dlt + "-0@");
                assertThat(text(s.headers().get(DeadLetterTopic.REPLAY_ID))).isEqualTo(first.replayId());
                assertThat(text(s.headers().get(DeadLetterTopic.REPLAY_REQUESTED_BY))).isEqualTo("the test");
                assertThat(s.headers()).doesNotContainKey("kafka-fetch.dlt.reason");
            }
        }

        // the same selection again, through a facade of its own (what was replayed is read back from the replay log
        // topic, nothing is kept in memory): nothing is replayed
        Properties client = new Properties();
        client.put("bootstrap.servers", kafka.bootstrapServers());
        DeadLetterTopic fresh = new DeadLetterTopic(dlt, DeadLetterTopic.defaultReplayLog(dlt), client, Admin::create,
                KafkaConsumer::new, KafkaProducer::new, s -> s, Duration.ofSeconds(30));
        DeadLetterTopic.ReplayResult second = fresh.replay(p0, null, "the test");
        assertThat(second.replayed()).isEmpty();
        assertThat(second.alreadyReplayed()).hasSize(3);
        assertThat(second.summary()).contains("nothing replayed").contains("3 replayed before, not again");
        assertThat(consumer.replayDeadLetters("partition=0", "")).contains("nothing replayed");
        List<ConsumerRecord<String, String>> source = kafka.readAll(topic, Duration.ofSeconds(10));
        assertThat(source.stream().filter(r -> bad0.contains(r.value()))).as("each replayed once").hasSize(6);
        assertThat(kafka.readAll(DeadLetterTopic.defaultReplayLog(dlt), Duration.ofSeconds(10))).hasSize(3);
        assertThat(seen.duplicates()).isEmpty();
        assertThat(seen.lost(produced)).isEmpty();
    }

    @Test
    void replayIsRefusedUnlessOperatorActionsAreOn() throws Exception {
        String topic = KafkaTestSupport.uniqueName("opreplayoff");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        CamelContext ctx = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "deadLetterTopic=" + dlt)).routeId("off")
                        .process(e -> {
                            throw new IllegalStateException("always");
                        });
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) ctx.getRoute("off").getConsumer();
        kafka.produceIds(topic, 2, "off", 1);
        DeadLetters.awaitRecords(kafka, dlt, 2, TIMEOUT);
        assertThat(consumer.operatorActions().listDeadLetters(DeadLetterFilter.ALL)).as("reading stays open")
                .hasSize(2);
        assertThatThrownBy(() -> consumer.operatorActions().replayDeadLetters(DeadLetterFilter.ALL, null, "the test"))
                .isInstanceOf(OperatorActionRefusedException.class).hasMessageContaining("replayDeadLetters")
                .hasMessageContaining("operatorActions=true");
        assertThat(kafka.readAll(topic, Duration.ofSeconds(5))).as("nothing replayed").hasSize(2);
    }

    private static String text(Object header) {
        return header instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(header);
    }
}
