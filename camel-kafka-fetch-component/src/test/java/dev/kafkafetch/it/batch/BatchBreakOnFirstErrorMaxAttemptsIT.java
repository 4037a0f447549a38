package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code batching=true} with {@code breakOnFirstError=true&breakOnFirstErrorMaxAttempts=3}: a batch that always fails
 * is delivered exactly 3 times (delivery attempt 1, 2, 3), then handled by the batch-failure rules — every one of its
 * records dead-lettered when a dead-letter topic is set, else logged and skipped whole — and the records after it are
 * consumed.
 */
class BatchBreakOnFirstErrorMaxAttemptsIT extends KafkaFetchITSupport {

    private static final String PREFIX = "id-bb-";

    private final List<Integer> attempts = new CopyOnWriteArrayList<>();
    /** The delivery-attempt header of the batch exchange itself, per failed delivery. */
    private final List<Integer> batchAttempts = new CopyOnWriteArrayList<>();
    private final List<List<String>> failedBatches = new CopyOnWriteArrayList<>();
    /** Per failed delivery: each record's own delivery-attempt header. */
    private final List<Map<String, Integer>> recordAttempts = new CopyOnWriteArrayList<>();
    private final List<String> done = new CopyOnWriteArrayList<>();

    @Test
    void failingBatchIsDeliveredThreeTimesThenEveryRecordIsDeadLettered() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-boe-dlt");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 30, "bb", 3);
        startRoute(topic, group, "&deadLetterTopic=" + dlt);

        List<String> lastFailed = awaitGivenUp(produced);
        List<ConsumerRecord<String, String>> dead = DeadLetters.awaitRecords(kafka, dlt, lastFailed.size(),
                Duration.ofSeconds(30));
        assertThat(dead).extracting(ConsumerRecord::value).as("every record of the failed batch is dead-lettered")
                .containsExactlyInAnyOrderElementsOf(lastFailed);
        for (ConsumerRecord<String, String> d : dead) {
            assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ORIGINAL_OFFSET)).as("offset of %s", d.value())
                    .isEqualTo(d.value().substring(PREFIX.length()));
            assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");
            assertThat(DeadLetters.header(d, KafkaFetchConstants.DLT_ATTEMPTS)).isEqualTo("3");
        }
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(done);
        dead.forEach(d -> lost.remove(d.value()));
        assertThat(lost).as("lost").isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }

    @Test
    void failingBatchIsDeliveredThreeTimesThenSkippedWholeWithoutDeadLetterTopic() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-boe");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 30, "bb", 3);
        startRoute(topic, group, "");

        List<String> lastFailed = awaitGivenUp(produced);
        List<String> expected = new ArrayList<>(produced);
        expected.removeAll(lastFailed);
        assertThat(done).as("records after the skipped batch").containsExactlyInAnyOrderElementsOf(expected);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
        Thread.sleep(500);
        assertThat(attempts).as("no delivery after giving up").hasSize(3);
    }

    private void startRoute(String topic, String group, String extra) throws Exception {
        String poison = PREFIX + "0";
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&maxPollRecords=10&breakOnFirstError=true"
                                       + "&breakOnFirstErrorMaxAttempts=3" + extra))
                        .routeId("r")
                        .process(e -> {
                            List<String> ids = new ArrayList<>();
                            Map<String, Integer> perRecord = new HashMap<>();
                            Integer attempt = e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                                    Integer.class);
                            for (Exchange r : DeadLetters.exchanges(e)) {
                                String id = r.getMessage().getBody(String.class);
                                ids.add(id);
                                perRecord.put(id, r.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                                        Integer.class));
                                if (id.equals(poison) && attempt == null) {
                                    attempt = r.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                                            Integer.class);
                                }
                            }
                            if (ids.contains(poison)) {
                                // the batch holding the first record always fails
                                attempts.add(attempt);
                                batchAttempts.add(e.getMessage().getHeader(KafkaFetchConstants.DELIVERY_ATTEMPT,
                                        Integer.class));
                                failedBatches.add(ids);
                                recordAttempts.add(perRecord);
                                throw new IllegalStateException("batch with " + poison + " fails");
                            }
                            done.addAll(ids);
                        });
            }
        });
    }

    /**
     * Waits until the failing batch was given up on (delivered 3 times and everything else consumed), or delivered
     * more than 3 times; asserts the delivery attempts were 1, 2, 3 and returns the last delivered failing batch.
     */
    private List<String> awaitGivenUp(List<String> produced) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (attempts.size() > 3) {
                return true;
            }
            if (attempts.size() < 3) {
                return false;
            }
            Set<String> rest = new HashSet<>(produced);
            rest.removeAll(failedBatches.get(2));
            return done.containsAll(rest);
        });
        List<Integer> firstAttempts = new ArrayList<>(attempts.subList(0, Math.min(attempts.size(), 10)));
        assertThat(attempts.size()).as("deliveries of the failing batch (attempt headers of the first ones: %s)",
                firstAttempts).isEqualTo(3);
        assertThat(attempts).as("delivery attempts").containsExactly(1, 2, 3);
        assertThat(batchAttempts).as("delivery attempts on the batch exchange").containsExactly(1, 2, 3);
        for (int i = 1; i < 3; i++) {
            for (String id : failedBatches.get(i)) {
                if (failedBatches.get(i - 1).contains(id)) {
                    assertThat(recordAttempts.get(i).get(id)).as("attempt header of %s in delivery %d", id, i + 1)
                            .isEqualTo(i + 1);
                }
            }
        }
        return failedBatches.get(2);
    }
}
