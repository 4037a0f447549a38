package dev.kafkafetch.error;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.window.PartitionState;
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Where a finished record goes next, with letters sent to Kafka's {@link MockProducer}: success and handled failures
 * straight back to the fetch thread; breakOnFirstError asks for a re-delivery while attempts are left; then a retry
 * topic, else the dead-letter topic (never a retry for a record that could not be deserialized), handed back only once
 * the broker acknowledged the letter; else logged and skipped. A letter the broker rejects for good leaves the record
 * unfinished and, with pollOnError STOP, stops the task.
 */
class FailureRouterTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
    private final List<WorkItem> completed = new CopyOnWriteArrayList<>();
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private final AtomicInteger stops = new AtomicInteger();
    private final AtomicInteger listenerPauses = new AtomicInteger();
    private final PartitionState state = new PartitionState(TP, -1);
    private LetterPublisher publisher;

    @AfterEach
    void close() {
        sender.shutdownNow();
    }

    private FailureRouter router(FailureRules rules, PollOnError onLetterError) {
        publisher = new LetterPublisher(new Properties(), props -> producer, sender);
        ExceptionHandler exceptionHandler = new ExceptionHandler() {
            @Override
            public void handleException(Throwable exception) {
                handleException(null, exception);
            }

            @Override
            public void handleException(String message, Throwable exception) {
                handled.add(message);
            }

            @Override
            public void handleException(String message, Exchange exchange, Throwable exception) {
                handleException(message, exception);
            }
        };
        return new FailureRouter(rules, publisher, exceptionHandler,
                new TaskMetrics("task", "t", "g", 100, 1, new SecretMasker(List.of())), error -> onLetterError,
                new FailureRouter.TaskSignals() {
                    @Override
                    public void completed(WorkItem item) {
                        completed.add(item);
                    }

                    @Override
                    public void pauseForListener() {
                        listenerPauses.incrementAndGet();
                    }

                    @Override
                    public void stop() {
                        stops.incrementAndGet();
                    }
                });
    }

    private WorkItem record(long offset, int attempt, Exception decodeError) {
        int generation = state.generation();
        long seq = state.append(offset);
        return new WorkItem(state, seq, generation, attempt, offset, 1_000L, "k".getBytes(StandardCharsets.UTF_8),
                ("v" + offset).getBytes(StandardCharsets.UTF_8), new RecordHeaders(), "k", "v" + offset, decodeError);
    }

    private static WorkItem failed(WorkItem item) {
        item.fail("failed", new IllegalStateException("boom"));
        return item;
    }

    private static String header(ProducerRecord<byte[], byte[]> letter, String key) {
        return new String(letter.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    @Test
    void aSucceededRecordGoesStraightBack() {
        FailureRouter router = router(new FailureRules("g", false, 0, "dlt", null, false), PollOnError.ERROR_HANDLER);
        WorkItem ok = record(0, 1, null);

        router.accept(ok);

        assertThat(completed).containsExactly(ok);
        assertThat(ok.breakRequested()).isFalse();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void withoutRulesAFailedRecordIsSkippedLikeCamelKafkaDoes() {
        FailureRouter router = router(new FailureRules("g", false, 0, null, null, false), PollOnError.ERROR_HANDLER);
        WorkItem item = failed(record(0, 1, null));

        router.accept(item);

        assertThat(completed).containsExactly(item);
        assertThat(item.deadLettered()).isFalse();
        assertThat(handled).as("Camel's error handler already reported it").isEmpty();
    }

    @Test
    void breakOnFirstErrorAsksForARedeliveryUntilTheAttemptsAreUsedThenDeadLetters() {
        FailureRouter router = router(new FailureRules("g", true, 2, "dlt", null, false), PollOnError.ERROR_HANDLER);
        WorkItem first = failed(record(0, 1, null));

        router.accept(first);

        assertThat(first.breakRequested()).as("attempt 1 of 2: delivered again").isTrue();
        assertThat(completed).containsExactly(first);
        assertThat(producer.history()).isEmpty();

        WorkItem second = failed(record(1, 2, null));
        router.accept(second);
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        assertThat(second.breakRequested()).isFalse();
        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.topic()).isEqualTo("dlt");
        assertThat(header(letter, KafkaFetchConstants.DLT_ATTEMPTS)).isEqualTo("2");
    }

    @Test
    void withoutADeadLetterTopicARecordOutOfAttemptsIsReportedAndSkipped() {
        FailureRouter router = router(new FailureRules("g", true, 2, null, null, false), PollOnError.ERROR_HANDLER);
        WorkItem item = failed(record(0, 2, null));

        router.accept(item);

        assertThat(completed).containsExactly(item);
        assertThat(item.breakRequested()).isFalse();
        assertThat(handled).singleElement().asString().contains("failed 2 times (breakOnFirstErrorMaxAttempts)")
                .contains("skipped");
    }

    @Test
    void aDeadLetteredRecordIsHandedBackOnlyOnceTheBrokerAcknowledgedItsLetter() {
        FailureRouter router = router(new FailureRules("g", false, 0, "dlt", null, false), PollOnError.ERROR_HANDLER);
        WorkItem item = failed(record(7, 1, null));

        router.accept(item);

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        assertThat(completed).as("not before the acknowledgement").isEmpty();
        assertThat(state.deadLettersPending()).isEqualTo(1);
        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.topic()).isEqualTo("dlt");
        assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("v7");
        assertThat(header(letter, KafkaFetchConstants.DLT_ORIGINAL_TOPIC)).isEqualTo("t");
        assertThat(header(letter, KafkaFetchConstants.DLT_ORIGINAL_OFFSET)).isEqualTo("7");
        assertThat(header(letter, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");
        assertThat(header(letter, KafkaFetchConstants.DLT_EXCEPTION_MESSAGE)).isEqualTo("boom");

        producer.completeNext();

        await().atMost(Duration.ofSeconds(10)).until(() -> completed.size() == 1);
        assertThat(completed).containsExactly(item);
        assertThat(item.deadLettered()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> state.deadLettersPending() == 0);
    }

    @Test
    void aFailedRecordGoesToItsNextRetryTopicButAnUndeserializableOneToTheDeadLetterTopic() {
        RetryPlan retries = new RetryPlan(List.of("t"), new long[] { 1_000 }, "{topic}.retry-{n}");
        FailureRouter router = router(new FailureRules("g", false, 0, "dlt", retries, false),
                PollOnError.ERROR_HANDLER);
        WorkItem failedRecord = failed(record(0, 1, null));
        WorkItem undeserializable = failed(record(1, 1, new IllegalArgumentException("bad bytes")));

        router.accept(failedRecord);
        router.accept(undeserializable);

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 2);
        List<String> topics = new ArrayList<>();
        producer.history().forEach(r -> topics.add(r.topic()));
        assertThat(topics).containsExactlyInAnyOrder("t.retry-1", "dlt");
        producer.completeNext();
        producer.completeNext();
        await().atMost(Duration.ofSeconds(10)).until(() -> completed.size() == 2);
        assertThat(failedRecord.retried()).isTrue();
        assertThat(failedRecord.deadLettered()).isFalse();
        assertThat(undeserializable.deadLettered()).isTrue();
        assertThat(handled).as("both handed over: nothing for the exception handler").isEmpty();
    }

    @Test
    void aLetterTheBrokerRejectsLeavesTheRecordUnfinishedAndStopsTheTaskWithPollOnErrorStop() {
        FailureRouter router = router(new FailureRules("g", false, 0, "dlt", null, false), PollOnError.STOP);
        WorkItem item = failed(record(0, 1, null));

        router.accept(item);
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        producer.errorNext(new TopicAuthorizationException("not allowed"));

        await().atMost(Duration.ofSeconds(10)).until(() -> stops.get() == 1);
        assertThat(completed).as("neither processed nor handed over: not finished").isEmpty();
        // the letter is sent again after a backoff; once it is acknowledged the record is handed back
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 2);
        producer.completeNext();
        await().atMost(Duration.ofSeconds(10)).until(() -> completed.size() == 1);
        assertThat(item.deadLettered()).isTrue();
    }

    @Test
    void aStalledRecordIsDeadLetteredWithReasonStalledNeverRetried() {
        RetryPlan retries = new RetryPlan(List.of("t"), new long[] { 1_000 }, "{topic}.retry-{n}");
        FailureRouter router = router(new FailureRules("g", false, 0, "dlt", retries, false),
                PollOnError.ERROR_HANDLER);
        WorkItem item = record(0, 1, null);

        router.deadLetterStalled(item, new StallException(item, 1000, null, false));

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.topic()).isEqualTo("dlt");
        assertThat(header(letter, KafkaFetchConstants.DLT_REASON)).isEqualTo("stalled");
    }
}
