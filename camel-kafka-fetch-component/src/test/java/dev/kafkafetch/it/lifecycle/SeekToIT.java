package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code seekTo} applies to the route's first assignment only, once per partition, and never to retry topics: a retry
 * letter pending at a restart is routed when due (END does not skip it, BEGINNING does not route a past one again), and
 * a partition the route takes over later from another member starts at the group's committed offset (END skips no
 * backlog, BEGINNING does not replay what the group finished).
 */
class SeekToIT extends KafkaFetchITSupport {

    /** The route's session timeout in the takeover test: how long its idle tasks take part in the first assignment. */
    private static final int IDLE_GRACE_MS = 2000;

    /** One delivery the route saw: the record id and its delivery attempt. */
    private record Delivery(String id, int attempt) {
    }

    @ParameterizedTest
    @ValueSource(strings = { "END", "BEGINNING" })
    void aRetryLetterPendingAtARestartIsRoutedOnceWhenDue(String seekTo) throws Exception {
        String topic = KafkaTestSupport.uniqueName("seek-retry");
        String group = KafkaTestSupport.uniqueName("g");
        String dlt = topic + ".DLT";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "seekTo=" + seekTo + "&retryDelays=8s&deadLetterTopic=" + dlt)).routeId("r")
                        .process(e -> {
                            String id = e.getMessage().getBody(String.class);
                            int attempt = e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, Integer.class);
                            deliveries.add(new Delivery(id, attempt));
                            // only its very first delivery fails (BEGINNING routes the source record again)
                            if (id.endsWith("-fails") && failedOnce.add(id)) {
                                throw new IllegalStateException("first delivery of " + id + " fails");
                            }
                        });
            }
        });
        awaitAssigned(context, topic);
        kafka.produceIds(topic, 3, "before", 1);
        kafka.produce(topic, null, "k", "id-first-fails", null);
        await().atMost(Duration.ofSeconds(20)).until(() -> deliveries.contains(new Delivery("id-first-fails", 1)));
        // the retry letter is the only copy now: it is in the retry topic and the source is committed past the record
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(kafka.endOffsets(topic + ".retry-1")).containsValue(1L);
            assertThat(kafka.committedOffsets(group, topic)).containsValue(4L);
        });
        long failedAt = System.currentTimeMillis();

        context.getRouteController().stopRoute("r");
        context.getRouteController().startRoute("r");
        assertThat(System.currentTimeMillis() - failedAt).as("restarted before the retry was due (8 s)")
                .isLessThan(7000);
        assertThat(deliveries).doesNotContain(new Delivery("id-first-fails", 2));

        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.contains(new Delivery("id-first-fails", 2)));
        // a second failing record after the restart: once its letter (behind the first one) is routed, a past letter
        // routed again would have shown up before it
        awaitAssigned(context, topic);
        kafka.produce(topic, null, "k", "id-second-fails", null);
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.contains(new Delivery("id-second-fails", 2)));
        // once more, now that both letters were routed: a restart must not route them again
        context.getRouteController().stopRoute("r");
        context.getRouteController().startRoute("r");
        awaitAssigned(context, topic);
        kafka.produce(topic, null, "k", "id-third-fails", null);
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.contains(new Delivery("id-third-fails", 2)));
        assertThat(deliveries.stream().filter(d -> d.attempt() > 1)).containsExactly(
                new Delivery("id-first-fails", 2), new Delivery("id-second-fails", 2),
                new Delivery("id-third-fails", 2));
        assertThat(kafka.endOffsets(dlt)).containsValue(0L);
    }

    @ParameterizedTest
    @ValueSource(strings = { "END", "BEGINNING" })
    void aPartitionTakenOverLaterStartsAtTheCommittedOffset(String seekTo) throws Exception {
        String topic = KafkaTestSupport.uniqueName("seek-idle");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        TopicPartition p0 = new TopicPartition(topic, 0);
        List<String> finishedByOther = kafka.produceIds(topic, 10, "other", 1);
        Map<String, Object> conf = new HashMap<>();
        conf.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        conf.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        conf.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        conf.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        conf.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        conf.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000);
        conf.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        Recorder recorder = new Recorder();
        CamelContext context;
        List<String> backlog;
        try (KafkaConsumer<byte[], byte[]> other = new KafkaConsumer<>(conf, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            // another member of the group holds the only partition and finishes (commits) the first 10 records
            other.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                other.poll(Duration.ofMillis(100));
                return other.assignment().contains(p0);
            });
            other.commitSync(Map.of(p0, new OffsetAndMetadata(10)));
            context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, group, "seekTo=" + seekTo + "&consumersCount=2&sessionTimeoutMs=" + IDLE_GRACE_MS
                                           + "&partitionAssignor=" + CooperativeStickyAssignor.class.getName()))
                            .routeId("r").process(recorder);
                }
            });
            KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
            // the route's first assignment: both tasks in the group, neither with a partition (the other member keeps it)
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                other.poll(Duration.ofMillis(100));
                return consumer.taskSnapshots().stream().allMatch(t -> t.generation() > 0 && t.partitions().isEmpty());
            });
            // wait out the grace (the route's session timeout) in which an idle task still takes part in the first
            // assignment: what it is given after that is a takeover
            long idleSince = System.nanoTime();
            while (System.nanoTime() - idleSince < TimeUnit.MILLISECONDS.toNanos(IDLE_GRACE_MS + 500)) {
                other.poll(Duration.ofMillis(100));
            }
            assertThat(other.assignment()).as("the other member still holds the partition").containsExactly(p0);
            assertThat(consumer.taskSnapshots()).allMatch(t -> t.partitions().isEmpty());
            // a backlog the other member never finished, produced after the route's first assignment
            backlog = kafka.produceIds(topic, 10, "backlog", 1);
        }
        // the other member left: one of the route's idle tasks takes the partition over
        awaitCount(recorder, backlog.size(), Duration.ofSeconds(30));
        assertThat(recorder.lost(backlog)).as("backlog skipped").isEmpty();
        assertThat(recorder.ids()).as("records the group had finished, routed again").doesNotContainAnyElementsOf(
                finishedByOther);
        assertThat(recorder.duplicates()).isEmpty();
        context.stop();
    }

    private static void awaitAssigned(CamelContext context, String topic) {
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<TaskSnapshot> tasks = consumer.taskSnapshots();
            // its position is known (seekTo done): a record produced now is after it
            return !tasks.isEmpty()
                   && tasks.get(0).partitions().stream().anyMatch(p -> p.topic().equals(topic) && p.lag() >= 0);
        });
    }
}
