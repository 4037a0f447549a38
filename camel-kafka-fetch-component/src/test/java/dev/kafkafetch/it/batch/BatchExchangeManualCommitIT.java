package dev.kafkafetch.it.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code batching=true&allowManualCommit=true}: the batch exchange carries what camel-kafka 4.22 puts on it — a
 * {@code CamelKafkaManualCommit} header, and {@code CamelKafkaTopic} / {@code CamelKafkaPartition} when every record
 * of the batch shares them — and committing through it commits the whole batch. A failed batch that the route's
 * error handler commits that way under {@code breakOnFirstError} is not delivered again (as with a failed record
 * committed in streaming mode, and as camel-kafka's own {@code KafkaBatchingProcessingBreakOnFirstErrorManualCommitIT}
 * expects).
 */
class BatchExchangeManualCommitIT extends KafkaFetchITSupport {

    private final List<Object> batchCommits = new CopyOnWriteArrayList<>();
    private final List<Object> batchTopics = new CopyOnWriteArrayList<>();
    private final List<Object> batchPartitions = new CopyOnWriteArrayList<>();
    private final List<List<String>> failedDeliveries = new CopyOnWriteArrayList<>();
    private final List<String> done = new CopyOnWriteArrayList<>();

    @Test
    void committingThroughTheBatchExchangeCommitsTheWholeBatch() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-mc");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 5, "bm", 1);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "batching=true&maxPollRecords=10&allowManualCommit=true"
                                       + "&autoCommitEnable=false"))
                        .routeId("r")
                        .process(e -> {
                            batchTopics.add(e.getMessage().getHeader(KafkaFetchConstants.TOPIC));
                            batchPartitions.add(e.getMessage().getHeader(KafkaFetchConstants.PARTITION));
                            Object commit = e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT);
                            batchCommits.add(commit == null ? "none" : commit);
                            ids(e).forEach(done::add);
                            if (commit instanceof KafkaManualCommit manual) {
                                manual.commit();
                            }
                        });
            }
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsAll(produced));
        assertThat(batchCommits).as("the batch exchange's CamelKafkaManualCommit header")
                .allSatisfy(c -> assertThat(c).isInstanceOf(KafkaManualCommit.class));
        assertThat(batchTopics).as("CamelKafkaTopic of the batch exchange").containsOnly(topic);
        assertThat(batchPartitions).as("CamelKafkaPartition of the batch exchange").containsOnly(0);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .as("committed through the batch exchange only").isEqualTo(kafka.endOffsets(topic)));
    }

    @Test
    void failedBatchCommittedByTheErrorHandlerIsNotDeliveredAgain() throws Exception {
        String topic = KafkaTestSupport.uniqueName("batch-mc-boe");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> first = kafka.produceIds(topic, 6, "bf", 1);
        String poison = first.get(3);
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(false).process(e -> {
                    KafkaManualCommit manual = e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT,
                            KafkaManualCommit.class);
                    manual.commit();
                });
                from(uri(topic, group, "batching=true&maxPollRecords=10&allowManualCommit=true"
                                       + "&autoCommitEnable=false&breakOnFirstError=true"))
                        .routeId("r")
                        .process(e -> {
                            List<String> ids = ids(e);
                            if (ids.contains(poison)) {
                                failedDeliveries.add(ids);
                                throw new IllegalStateException("batch with " + poison + " fails");
                            }
                            done.addAll(ids);
                            e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT, KafkaManualCommit.class)
                                    .commit();
                        });
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> !failedDeliveries.isEmpty());
        List<String> second = kafka.produceIds(topic, 3, "bs", 1);

        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsAll(second));
        assertThat(failedDeliveries).as("deliveries of the batch its error handler committed").hasSize(1);
        List<String> routed = new ArrayList<>(done);
        routed.addAll(failedDeliveries.get(0));
        List<String> produced = new ArrayList<>(first);
        produced.addAll(second);
        assertThat(routed).as("each record routed once").containsExactlyInAnyOrderElementsOf(produced);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }

    private static List<String> ids(Exchange batch) {
        List<String> ids = new ArrayList<>();
        for (Exchange r : DeadLetters.exchanges(batch)) {
            ids.add(r.getMessage().getBody(String.class));
        }
        return ids;
    }
}
