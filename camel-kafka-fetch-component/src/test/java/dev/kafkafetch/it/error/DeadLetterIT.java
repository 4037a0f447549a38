package dev.kafkafetch.it.error;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.OldestUnfinished;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.AsyncCallback;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.AsyncProcessorSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Poison, undeserializable and stalled records go to the dead-letter topic and their partition moves on. */
class DeadLetterIT extends KafkaFetchITSupport {

    @Test
    void poisonRecordIsDeadLetteredWithProvenanceAndThePartitionMovesOn() throws Exception {
        String topic = KafkaTestSupport.uniqueName("poison");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 400, "d", 8);
        String poison = "id-d-123";
        kafka.produce(topic, 0, "pk", "poison-header-check", Map.of("origin", "test".getBytes(StandardCharsets.UTF_8)));
        Recorder recorder = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "maxConcurrency=8&ordering=KEY&deadLetterTopic=" + dlt))
                        .process(e -> {
                            String body = e.getMessage().getBody(String.class);
                            if (body.equals(poison) || body.equals("poison-header-check")) {
                                throw new IllegalArgumentException("cannot handle " + body);
                            }
                        }).process(recorder);
            }
        });
        awaitCount(recorder, produced.size() - 1, Duration.ofSeconds(60));
        List<ConsumerRecord<String, String>> dead = awaitRecords(dlt, 2);
        assertThat(dead).extracting(ConsumerRecord::value)
                .containsExactlyInAnyOrder(poison, "poison-header-check");
        ConsumerRecord<String, String> withHeaders = dead.stream()
                .filter(r -> r.value().equals("poison-header-check")).findFirst().orElseThrow();
        assertThat(withHeaders.key()).isEqualTo("pk");
        assertThat(header(withHeaders, "origin")).isEqualTo("test");
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_ORIGINAL_TOPIC)).isEqualTo(topic);
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_ORIGINAL_PARTITION)).isEqualTo("0");
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_ORIGINAL_OFFSET)).isNotBlank();
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_ORIGINAL_TIMESTAMP)).isNotBlank();
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_GROUP_ID)).isEqualTo(group);
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_EXCEPTION_CLASS))
                .isEqualTo(IllegalArgumentException.class.getName());
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE)).contains("poison-header-check");
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_ATTEMPTS)).isEqualTo("1");
        assertThat(header(withHeaders, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");

        List<String> good = new ArrayList<>(produced);
        good.remove(poison);
        assertThat(recorder.lost(good)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        // the committed offsets pass the poison records
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
    }

    @Test
    void undeserializableRecordIsDeadLetteredAtItsOffsetAndEveryOtherRecordArrives() throws Exception {
        String topic = KafkaTestSupport.uniqueName("serde");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        for (int i = 0; i < 50; i++) {
            kafka.produceBytes(topic, i % 2, null, ByteBuffer.allocate(4).putInt(i).array());
            if (i == 20) {
                kafka.produceBytes(topic, 0, null, new byte[] { 1, 2, 3 }); // not an int
            }
        }
        List<Integer> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "valueDeserializer=org.apache.kafka.common.serialization.IntegerDeserializer"
                                       + "&deadLetterTopic=" + dlt))
                        .process(e -> seen.add(e.getMessage().getBody(Integer.class)));
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.size() >= 50);
        assertThat(seen).hasSize(50).doesNotHaveDuplicates();
        List<ConsumerRecord<String, String>> dead = awaitRecords(dlt, 1);
        assertThat(header(dead.get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("deserialization");
        assertThat(header(dead.get(0), KafkaFetchConstants.DLT_ORIGINAL_PARTITION)).isEqualTo("0");
        assertThat(header(dead.get(0), KafkaFetchConstants.DLT_ORIGINAL_OFFSET)).isEqualTo("11");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
    }

    @Test
    void stalledRecordIsReportedDeadLetteredAndThePartitionMovesOn() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stall");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 100, "st", 5);
        String stuck = "id-st-10";
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "stallTimeoutMs=2000&deadLetterTopic=" + dlt)).routeId("r")
                        .process(e -> {
                            if (e.getMessage().getBody(String.class).equals(stuck)) {
                                release.await(); // blocks "forever"
                            }
                        }).process(recorder);
            }
        });
        try {
            awaitCount(recorder, 99, Duration.ofSeconds(30));
            List<ConsumerRecord<String, String>> dead = awaitRecords(dlt, 1);
            assertThat(dead.get(0).value()).isEqualTo(stuck);
            assertThat(header(dead.get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
            KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(consumer.taskSnapshots().get(0).recordsStalled()).isEqualTo(1);
                assertThat(consumer.taskSnapshots().get(0).lastError()).contains(stuck.isEmpty() ? "" : "stall",
                        "more than 2000 ms");
            });
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    kafka.committedOffsets(group, topic).get(new TopicPartition(topic, 0))).isEqualTo(100L));
            List<String> others = new ArrayList<>(produced);
            others.remove(stuck);
            assertThat(recorder.lost(others)).isEmpty();
        } finally {
            release.countDown();
        }
        // the late completion of the abandoned record is ignored (it does not count twice)
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.ids().contains(stuck));
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        assertThat(consumer.taskSnapshots().get(0).recordsFinished()).isEqualTo(100);
    }

    @Test
    void aRecordStalledInAnAsynchronousStepIsShownAndDeadLetteredAsHeldByNoThread() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stall-async");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 50, "sa", 5);
        String stuck = "id-sa-3";
        List<AsyncCallback> neverCompleted = new CopyOnWriteArrayList<>();
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group,
                        "stallTimeoutMs=6000&maxConcurrency=2&ordering=UNORDERED&deadLetterTopic=" + dlt)).routeId("r")
                        .process(new AsyncProcessorSupport() {
                            @Override
                            public boolean process(Exchange exchange, AsyncCallback callback) {
                                if (stuck.equals(exchange.getMessage().getBody(String.class))) {
                                    neverCompleted.add(callback); // an asynchronous call that never answers
                                    return false;
                                }
                                callback.done(true);
                                return true;
                            }
                        }).process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        // premise: its worker went on to other records while it waits, and the console says no thread holds it
        awaitCount(recorder, 49, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(20)).until(() -> {
            OldestUnfinished o = consumer.taskSnapshots().get(0).partitions().get(0).oldestUnfinished();
            return o != null && o.offset() == 3 && !"queued".equals(o.state()) && !"starting".equals(o.state());
        });
        OldestUnfinished shown = consumer.taskSnapshots().get(0).partitions().get(0).oldestUnfinished();
        assertThat(shown.state()).isEqualTo("async");
        assertThat(shown.thread()).isNull();
        // the stall report names no thread (the one that started it runs other records now)
        List<ConsumerRecord<String, String>> dead = awaitRecords(dlt, 1);
        assertThat(dead.get(0).value()).isEqualTo(stuck);
        assertThat(header(dead.get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
        assertThat(header(dead.get(0), KafkaFetchConstants.DLT_EXCEPTION_MESSAGE))
                .contains("in an asynchronous step (no thread holds it)").doesNotContain("on thread");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                kafka.committedOffsets(group, topic).get(new TopicPartition(topic, 0))).isEqualTo(50L));
        List<String> others = new ArrayList<>(produced);
        others.remove(stuck);
        assertThat(recorder.lost(others)).isEmpty();
        assertThat(neverCompleted).hasSize(1);
    }

    private static List<ConsumerRecord<String, String>> awaitRecords(String topic, int n) {
        List<List<ConsumerRecord<String, String>>> holder = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<ConsumerRecord<String, String>> all = kafka.readAll(topic, Duration.ofSeconds(5));
            holder.clear();
            holder.add(all);
            return all.size() >= n;
        });
        return holder.get(0);
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
