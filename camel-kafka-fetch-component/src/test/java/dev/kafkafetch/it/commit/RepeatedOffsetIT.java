package dev.kafkafetch.it.commit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.task.TaskState;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A record whose offset does not increase (a consumer interceptor repeating records; offsets re-used after a log
 * truncation) is skipped as already held, counted and logged; the fetch task lives on, nothing is routed twice and
 * the committed offsets still reach the end only once every record finished.
 */
class RepeatedOffsetIT extends KafkaFetchITSupport {

    /** Records repeated so far by {@link RepeatingInterceptor}. */
    static final AtomicInteger REPEATED = new AtomicInteger();

    /** Appends a copy of the first record of each partition to what a poll returned (while the test asks for it). */
    public static final class RepeatingInterceptor implements ConsumerInterceptor<byte[], byte[]> {

        static volatile boolean repeating = true;

        @Override
        public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
            if (!repeating || records.isEmpty()) {
                return records;
            }
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> map = new HashMap<>();
            for (TopicPartition tp : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>(records.records(tp));
                list.add(list.get(0));
                REPEATED.incrementAndGet();
                map.put(tp, list);
            }
            return new ConsumerRecords<>(map, records.nextOffsets());
        }

        @Override
        public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        }

        @Override
        public void close() {
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }

    @Test
    void aRepeatedRecordIsSkippedAndTheTaskLivesOn() throws Exception {
        String topic = KafkaTestSupport.uniqueName("repeat");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        REPEATED.set(0);
        RepeatingInterceptor.repeating = true;
        List<String> first = kafka.produceIds(topic, 40, "a", 4);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "maxConcurrency=4&maxPollRecords=10&interceptorClasses="
                                       + RepeatingInterceptor.class.getName()))
                        .routeId("r").process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        // the premise: records were repeated to the task
        await().atMost(Duration.ofSeconds(30)).until(() -> REPEATED.get() >= 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> recorder.ids().containsAll(first) || !running(consumer));
        assertThat(running(consumer)).as("the fetch task runs after %d repeated records", REPEATED.get()).isTrue();
        awaitCount(recorder, first.size(), Duration.ofSeconds(30));
        RepeatingInterceptor.repeating = false;
        List<String> second = kafka.produceIds(topic, 40, "b", 4);
        awaitCount(recorder, first.size() + second.size(), Duration.ofSeconds(30));

        assertThat(running(consumer)).as("the fetch task still runs").isTrue();
        assertThat(recorder.lost(first)).isEmpty();
        assertThat(recorder.lost(second)).isEmpty();
        assertThat(recorder.duplicates()).as("a repeated record routed twice").isEmpty();
        assertThat(consumer.taskSnapshots().get(0).repeatedOffsetsSkipped()).isEqualTo(REPEATED.get());
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(kafka.committedOffsets(group, topic)).isEqualTo(kafka.endOffsets(topic)));
    }

    private static boolean running(KafkaFetchConsumer consumer) {
        return consumer.tasks().stream().allMatch(t -> t.state() != TaskState.TERMINATED);
    }
}
