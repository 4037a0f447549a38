package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The batch facade: one exchange per poll (or per batchingIntervalMs) whose body is the list of record exchanges. */
class BatchingIT extends KafkaFetchITSupport {

    private final List<List<String>> batches = new CopyOnWriteArrayList<>();

    @SuppressWarnings("unchecked")
    private void record(Exchange e) {
        List<Exchange> records = e.getMessage().getBody(List.class);
        List<String> ids = new ArrayList<>();
        for (Exchange r : records) {
            assertThat(r.getMessage().getHeader(KafkaFetchConstants.OFFSET)).isNotNull();
            ids.add(r.getMessage().getBody(String.class));
        }
        batches.add(ids);
    }

    @SuppressWarnings("unchecked")
    private static List<Exchange> exchanges(Exchange e) {
        return e.getMessage().getBody(List.class);
    }

    private List<String> allIds() {
        List<String> ids = new ArrayList<>();
        batches.forEach(ids::addAll);
        return ids;
    }

    @Test
    void recordsArriveAsBatchesOfAtMostMaxPollRecords() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 1000, "b", 10);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "batching=true&maxPollRecords=100"))
                        .process(BatchingIT.this::record);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> allIds().size() >= 1000);
        assertThat(allIds()).containsExactlyInAnyOrderElementsOf(produced);
        assertThat(batches).allMatch(b -> !b.isEmpty() && b.size() <= 100);
        assertThat(batches.size()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void slowTrickleIsDeliveredWithinTheBatchingInterval() throws Exception {
        String topic = KafkaTestSupport.uniqueName("trickle");
        kafka.createTopic(topic, 1);
        List<Long> latencies = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "batching=true&batchingIntervalMs=500&maxPollRecords=100&pollTimeoutMs=5000"))
                        .process(e -> {
                            record(e);
                            for (Exchange r : exchanges(e)) {
                                latencies.add(System.currentTimeMillis()
                                              - r.getMessage().getHeader(KafkaFetchConstants.TIMESTAMP, Long.class));
                            }
                        });
            }
        });
        Thread.sleep(2000); // joined and idle
        for (int i = 0; i < 10; i++) {
            kafka.produce(topic, 0, null, "t" + i, null);
            Thread.sleep(100);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> allIds().size() >= 10);
        assertThat(allIds()).hasSize(10);
        // records collected over polls into fewer batches than records, each within the interval (+ poll, + slack)
        assertThat(batches.size()).isLessThan(10);
        assertThat(latencies).allMatch(ms -> ms < 2000);
    }

    @Test
    void failedBatchIsRedeliveredWholeWithBreakOnFirstError() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batchfail");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 300, "f", 3);
        AtomicBoolean failedOnce = new AtomicBoolean();
        List<List<String>> failed = new CopyOnWriteArrayList<>();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&maxPollRecords=50&breakOnFirstError=true"))
                        .process(e -> {
                            if (failedOnce.compareAndSet(false, true)) {
                                List<String> ids = new ArrayList<>();
                                for (Exchange r : exchanges(e)) {
                                    ids.add(r.getMessage().getBody(String.class));
                                }
                                failed.add(ids);
                                throw new IllegalStateException("first batch fails");
                            }
                            record(e);
                        });
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> allIds().size() >= 300);
        Thread.sleep(300);
        assertThat(allIds()).containsExactlyInAnyOrderElementsOf(produced);
        // the failed batch came back whole: every one of its records was processed again
        assertThat(allIds()).containsAll(failed.get(0));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }
}
