package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Non-blocking retries (retryDelays): a failed record goes to retry topic 1, 2, ... and is routed again from there no
 * earlier than its delay (and promptly then), while the source partition keeps flowing; after the last retry it goes
 * to the dead-letter topic with its whole history.
 */
class RetryTopicsIT extends KafkaFetchITSupport {

    /** One delivery the route saw: the record id, its attempt header, its original offset, and when. */
    private record Delivery(String id, int attempt, long originalOffset, String originalTopic, long atMs) {
    }

    @Test
    void aRecordFailingTwiceIsRoutedThreeTimesEachAfterItsDelayAndSucceedsOnce() throws Exception {
        String topic = KafkaTestSupport.uniqueName("retry");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 20, "rt", 5);
        String failing = produced.get(7);
        List<Delivery> deliveries = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "retryDelays=1s,2s&maxConcurrency=4")).routeId("r").process(e -> {
                    String id = e.getMessage().getBody(String.class);
                    int attempt = e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, Integer.class);
                    deliveries.add(new Delivery(id, attempt,
                            e.getMessage().getHeader(KafkaFetchConstants.ORIGINAL_OFFSET, Long.class),
                            e.getMessage().getHeader(KafkaFetchConstants.ORIGINAL_TOPIC, String.class),
                            System.currentTimeMillis()));
                    if (id.equals(failing) && attempt < 3) {
                        throw new IllegalStateException("attempt " + attempt + " of " + id + " fails");
                    }
                    successes.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                });
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> successes.keySet().containsAll(produced));
        List<Delivery> ofFailing = deliveries.stream().filter(d -> d.id().equals(failing)).toList();
        assertThat(ofFailing).extracting(Delivery::attempt).containsExactly(1, 2, 3);
        assertThat(ofFailing).extracting(Delivery::originalOffset).containsOnly(7L);
        assertThat(ofFailing).extracting(Delivery::originalTopic).containsOnly(topic);
        long wait1 = ofFailing.get(1).atMs() - ofFailing.get(0).atMs();
        long wait2 = ofFailing.get(2).atMs() - ofFailing.get(1).atMs();
        assertThat(wait1).as("waited for the first delay (1 s)").isBetween(1000L, 1000L + 2500);
        assertThat(wait2).as("waited for the second delay (2 s)").isBetween(2000L, 2000L + 2500);
        Thread.sleep(500); // a duplicate would show up meanwhile
        assertThat(successes).allSatisfy((id, n) -> assertThat(n.get()).as(id).isEqualTo(1));
        // the source and both retry topics are committed to their ends
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic));
            assertThat(kafka.committedOffsets(group, topic + ".retry-1"))
                    .isEqualTo(kafka.endOffsets(topic + ".retry-1"));
            assertThat(kafka.committedOffsets(group, topic + ".retry-2"))
                    .isEqualTo(kafka.endOffsets(topic + ".retry-2"));
        });
    }

    @Test
    void theSourceKeepsFlowingWhileARetryWaits() throws Exception {
        String topic = KafkaTestSupport.uniqueName("retry-flow");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> first = kafka.produceIds(topic, 10, "a", 5);
        Recorder done = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "retryDelays=8s")).routeId("r").process(e -> {
                    int attempt = e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, Integer.class);
                    if (e.getMessage().getBody(String.class).equals(first.get(0)) && attempt == 1) {
                        throw new IllegalStateException("first delivery fails");
                    }
                }).process(done);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> done.count() == 9);
        long start = System.currentTimeMillis();
        List<String> more = kafka.produceIds(topic, 50, "b", 5);
        await().atMost(Duration.ofSeconds(5)).until(() -> done.ids().containsAll(more));
        // the retry letter waits in its paused partition; the source's lag is 0 meanwhile
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            List<PartitionSnapshot> parts = consumer.taskSnapshots().get(0).partitions();
            return parts.stream().anyMatch(p -> p.topic().equals(topic + ".retry-1")
                                                && "retry-delay".equals(p.pausedReason()) && p.delayedUntil() > 0)
                   && parts.stream().anyMatch(p -> p.topic().equals(topic) && p.lag() == 0);
        });
        assertThat(System.currentTimeMillis() - start).as("all of that before the retry was due").isLessThan(7000);
        assertThat(done.ids()).doesNotContain(first.get(0));
        await().atMost(Duration.ofSeconds(20)).until(() -> done.ids().contains(first.get(0)));
    }

    @Test
    void aRecordFailingEveryTimeEndsInTheDeadLetterTopicWithItsHistory() throws Exception {
        String topic = KafkaTestSupport.uniqueName("retry-dlt");
        String group = KafkaTestSupport.uniqueName("g");
        String dlt = topic + ".DLT";
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 30, "d", 5);
        String poison = produced.get(4);
        Recorder done = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "retryDelays=300ms,600ms&deadLetterTopic=" + dlt)).routeId("r")
                        .process(e -> {
                            if (e.getMessage().getBody(String.class).equals(poison)) {
                                throw new IllegalStateException("always fails");
                            }
                        }).process(done);
            }
        });
        List<ConsumerRecord<String, String>> letters = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(30));
        assertThat(letters).hasSize(1);
        ConsumerRecord<String, String> letter = letters.get(0);
        assertThat(letter.value()).isEqualTo(poison);
        assertThat(DeadLetters.header(letter, KafkaFetchConstants.DLT_ORIGINAL_TOPIC)).isEqualTo(topic);
        assertThat(DeadLetters.header(letter, KafkaFetchConstants.DLT_ATTEMPTS)).isEqualTo("3");
        assertThat(DeadLetters.header(letter, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE)).isEqualTo("always fails");
        List<String> history = new CopyOnWriteArrayList<>();
        for (Header h : letter.headers().headers(KafkaFetchConstants.RETRY_HISTORY)) {
            history.add(new String(h.value()));
        }
        assertThat(history).hasSize(3);
        assertThat(history.get(0)).startsWith("attempt 1 ").contains(topic + "-");
        assertThat(history.get(1)).startsWith("attempt 2 ").contains(topic + ".retry-1-");
        assertThat(history.get(2)).startsWith("attempt 3 ").contains(topic + ".retry-2-");
        // its original offset is the one it had in the source topic
        int partition = Integer.parseInt(DeadLetters.header(letter, KafkaFetchConstants.DLT_ORIGINAL_PARTITION));
        long offset = Long.parseLong(DeadLetters.header(letter, KafkaFetchConstants.DLT_ORIGINAL_OFFSET));
        List<ConsumerRecord<String, String>> source = kafka.readAll(topic, Duration.ofSeconds(5));
        assertThat(source).anyMatch(r -> r.partition() == partition && r.offset() == offset
                                         && r.value().equals(poison));
        await().atMost(Duration.ofSeconds(10)).until(() -> done.ids().size() == produced.size() - 1);
        // every retry partition that received a letter is committed to its end
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> kafka.endOffsets(topic + ".retry-2").forEach(
                (tp, end) -> assertThat(end == 0 ? 0L : kafka.committedOffsets(group, tp.topic()).get(tp)).as("%s", tp)
                        .isEqualTo(end)));
    }
}
