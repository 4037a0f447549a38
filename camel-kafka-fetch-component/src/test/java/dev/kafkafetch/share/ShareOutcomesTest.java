package dev.kafkafetch.share;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.StallException;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.window.PartitionState;
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

/**
 * How a share record's outcome is decided, with dead letters sent to Kafka's {@link MockProducer}: ACCEPT when the
 * route finished it; RELEASE while deliveries remain (maxDeliveryAttempts, bounded by the group's delivery limit, the
 * lowest possible one while it is unknown); on the last delivery or for an undeserializable record a dead letter,
 * ACCEPTed only once the broker acknowledged it, else REJECT and the exception handler hears of it.
 */
class ShareOutcomesTest {

    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
    private final List<WorkItem> decided = new CopyOnWriteArrayList<>();
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private final DeliveryLimit limit = new DeliveryLimit();
    private volatile boolean handlerThrows;
    private final PartitionState state = new PartitionState(new TopicPartition("t", 0), -1);
    private long nextOffset;

    @AfterEach
    void close() {
        sender.shutdownNow();
    }

    private ShareOutcomes outcomes(String deadLetterTopic, int maxDeliveryAttempts) {
        LetterPublisher publisher = deadLetterTopic == null ? null
                : new LetterPublisher(new Properties(), props -> producer, sender);
        ExceptionHandler exceptionHandler = new ExceptionHandler() {
            @Override
            public void handleException(Throwable exception) {
                handleException(null, exception);
            }

            @Override
            public void handleException(String message, Throwable exception) {
                handled.add(message);
                if (handlerThrows) {
                    throw new IllegalStateException("a custom exception handler that throws");
                }
            }

            @Override
            public void handleException(String message, Exchange exchange, Throwable exception) {
                handleException(message, exception);
            }
        };
        return new ShareOutcomes("g", deadLetterTopic, maxDeliveryAttempts, limit, publisher, exceptionHandler,
                new TaskMetrics("task", "t", "g", 100, 1, new SecretMasker(List.of())),
                new SharePausable("task", () -> {
                }), decided::add);
    }

    /** A record on its {@code deliveryCount}-th delivery that the route failed (or that could not be decoded). */
    private WorkItem failed(int deliveryCount, Exception decodeError) {
        long offset = nextOffset++;
        WorkItem item = new WorkItem(state, offset, 0, deliveryCount, offset, 0L, null,
                ("v" + offset).getBytes(StandardCharsets.UTF_8), new RecordHeaders(), null, "v" + offset, decodeError);
        item.fail("failed", decodeError != null ? decodeError : new IllegalStateException("boom"));
        return item;
    }

    @Test
    void aFinishedRecordIsAccepted() {
        WorkItem ok = new WorkItem(state, 0, 0, 1, 0, 0L, null, null, new RecordHeaders(), null, "v", null);

        outcomes(null, 3).accept(ok);

        assertThat(decided).containsExactly(ok);
        assertThat(ShareOutcomes.acknowledgeTypeOf(ok)).isEqualTo(AcknowledgeType.ACCEPT);
    }

    @Test
    void aFailedRecordIsReleasedWhileDeliveriesRemainWithinTheGroupsLimit() {
        limit.known(5);
        ShareOutcomes outcomes = outcomes(null, 3);
        WorkItem second = failed(2, null);
        WorkItem third = failed(3, null);

        outcomes.accept(second);
        outcomes.accept(third);

        assertThat(ShareOutcomes.acknowledgeTypeOf(second)).isEqualTo(AcknowledgeType.RELEASE);
        assertThat(ShareOutcomes.acknowledgeTypeOf(third)).as("delivery 3 of 3: final")
                .isEqualTo(AcknowledgeType.REJECT);
        assertThat(handled).singleElement().asString().contains("failed on delivery 3 of 3").contains("rejected");
    }

    @Test
    void aRejectedRecordIsDecidedEvenWhenTheExceptionHandlerThrows() {
        limit.known(5);
        handlerThrows = true;
        ShareOutcomes outcomes = outcomes(null, 2);
        WorkItem last = failed(2, null);

        // on the fetch thread too (a record that cannot be deserialized, a stall): nothing may escape into its loop
        assertThatCode(() -> outcomes.accept(last)).as("what the handler threw").doesNotThrowAnyException();

        assertThat(handled).as("the handler was called (and threw)").hasSize(1);
        assertThat(decided).as("handed to the fetch thread, not held and renewed for ever").containsExactly(last);
        assertThat(ShareOutcomes.acknowledgeTypeOf(last)).isEqualTo(AcknowledgeType.REJECT);
    }

    @Test
    void whileTheGroupsLimitIsUnknownTheLowestPossibleOneBoundsTheAttempts() {
        ShareOutcomes outcomes = outcomes(null, 10);
        assertThat(outcomes.maxAttempts()).isEqualTo(DeliveryLimit.LOWEST_POSSIBLE);
        WorkItem second = failed(DeliveryLimit.LOWEST_POSSIBLE, null);

        outcomes.accept(second);

        assertThat(ShareOutcomes.acknowledgeTypeOf(second)).as("never released where a release may archive it")
                .isEqualTo(AcknowledgeType.REJECT);
    }

    @Test
    void onItsLastDeliveryARecordIsAcceptedOnlyOnceItsDeadLetterIsAcknowledged() {
        limit.known(5);
        ShareOutcomes outcomes = outcomes("dlt", 2);
        WorkItem last = failed(2, null);

        outcomes.accept(last);

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        assertThat(decided).as("not before the acknowledgement").isEmpty();
        ProducerRecord<byte[], byte[]> letter = producer.history().get(0);
        assertThat(letter.topic()).isEqualTo("dlt");
        assertThat(header(letter, ShareOutcomes.DLT_DELIVERY_COUNT)).isEqualTo("2");
        assertThat(header(letter, KafkaFetchConstants.DLT_REASON)).isEqualTo("failed");

        producer.completeNext();

        await().atMost(Duration.ofSeconds(10)).until(() -> decided.size() == 1);
        assertThat(ShareOutcomes.acknowledgeTypeOf(last)).isEqualTo(AcknowledgeType.ACCEPT);
    }

    @Test
    void aStalledRecordReleasedForAnotherDeliveryStaysReleasedWhenItsAbandonedWorkerFailsItLate() {
        limit.known(5);
        ShareOutcomes outcomes = outcomes(null, 5);
        WorkItem stalled = new WorkItem(state, 0, 0, 1, 0, 0L, null, null, new RecordHeaders(), null, "v", null);

        // the fetch thread gave up on it (delivery 1 of 5): released, on the way to the fetch thread's acknowledgement
        outcomes.stalled(stalled, new StallException(stalled, 100, Thread.currentThread(), false));
        assertThat(decided).containsExactly(stalled);
        // then its abandoned worker's route throws, before the fetch thread reads the outcome (what the route's
        // completion does when it comes between the decision and the acknowledgement)
        stalled.fail("failed", new IllegalStateException("late"));

        assertThat(ShareOutcomes.acknowledgeTypeOf(stalled))
                .as("RELEASE, not a REJECT that archives a record with 4 deliveries left")
                .isEqualTo(AcknowledgeType.RELEASE);
        assertThat(handled).as("nothing final reported").isEmpty();
    }

    @Test
    void anUndeserializableRecordIsNeverReleasedButDeadLetteredAtOnce() {
        limit.known(5);
        ShareOutcomes outcomes = outcomes("dlt", 5);
        WorkItem undecodable = failed(1, new IllegalArgumentException("bad bytes"));

        outcomes.accept(undecodable);

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        assertThat(header(producer.history().get(0), KafkaFetchConstants.DLT_REASON)).isEqualTo("deserialization");
    }

    private static String header(ProducerRecord<byte[], byte[]> letter, String key) {
        return new String(letter.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }
}
