package dev.kafkafetch.share;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.Letters;
import dev.kafkafetch.error.StallException;
import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, on the worker that finished a record (or on the fetch thread for a record that could not be
 * deserialized), how the broker is to be told, then hands the record to the fetch thread, which alone acknowledges:
 * <ul>
 * <li>the route finished it (successfully, or its error was handled): ACCEPT;</li>
 * <li>it is still failed and deliveries remain ({@code attempt < maxDeliveryAttempts}, the attempt being the broker's
 * delivery count): RELEASE, so the broker delivers it again, possibly to another member;</li>
 * <li>it is still failed and the Pausable EIP's listener paused the task for it ({@link SharePausable}): RELEASE
 * unless this is the group's last delivery (a release then would archive it), whatever
 * {@code maxDeliveryAttempts} says, as the classic scheme delivers the record that paused it again;</li>
 * <li>its last delivery failed, or it cannot be deserialized: with a dead-letter topic, its dead letter is sent and it
 * is ACCEPTed only once the broker acknowledged the dead letter; without one it is REJECTed and the consumer's
 * exception handler hears of it.</li>
 * </ul>
 * Guarantee: every record given to it is handed to the fetch thread exactly once, and nothing is ACCEPTed that was
 * neither finished by the route nor safely dead-lettered (a dead letter the broker keeps refusing leaves its record
 * unacknowledged, renewed, and reported).
 */
final class ShareOutcomes implements Consumer<WorkItem> {

    /** Record header of a dead letter: the broker's delivery count of the record's last delivery. */
    static final String DLT_DELIVERY_COUNT = "kafka-fetch.dlt.delivery-count";
    /** The failure reason a worker gives a failed record that is to be released for another delivery. */
    static final String RELEASED = "released";
    /** The failure reason of a record given up on because it stayed in the route longer than stallTimeoutMs. */
    static final String STALLED = "stalled";

    private static final Logger LOG = LoggerFactory.getLogger(ShareOutcomes.class);

    private final String deadLetterTopic;
    private final Letters letters;
    private final LetterPublisher publisher;
    private final ExceptionHandler exceptionHandler;
    private final TaskMetrics metrics;
    private final Consumer<WorkItem> decided;
    private final AtomicInteger troubled = new AtomicInteger();
    private final int maxDeliveryAttempts;
    private final DeliveryLimit limit;
    private final SharePausable pausable;

    /**
     * @param publisher null without a dead-letter topic
     * @param decided   hands a decided record to the fetch thread
     */
    ShareOutcomes(String groupId, String deadLetterTopic, int maxDeliveryAttempts, DeliveryLimit limit,
                  LetterPublisher publisher, ExceptionHandler exceptionHandler, TaskMetrics metrics,
                  SharePausable pausable, Consumer<WorkItem> decided) {
        this.deadLetterTopic = deadLetterTopic;
        this.letters = new Letters(groupId, null);
        this.publisher = publisher;
        this.exceptionHandler = exceptionHandler;
        this.metrics = metrics;
        this.decided = decided;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.limit = limit;
        this.pausable = pausable;
    }

    /** Deliveries before a failure is final: maxDeliveryAttempts, bounded by the group's delivery limit. */
    int maxAttempts() {
        return Math.min(maxDeliveryAttempts, limit.value());
    }

    /** How the fetch thread acknowledges a decided record. */
    static AcknowledgeType acknowledgeTypeOf(WorkItem item) {
        if (item.failure() == null || item.deadLettered()) {
            return AcknowledgeType.ACCEPT;
        }
        return item.released() ? AcknowledgeType.RELEASE : AcknowledgeType.REJECT;
    }

    /** The fetch thread gave up on a stalled record: a failure of its delivery (released, dead-lettered or rejected). */
    void stalled(WorkItem item, StallException stall) {
        item.fail(STALLED, stall);
        decide(item, false);
    }

    /** A worker finished running the record: the Pausable EIP's listener hears of it first. */
    @Override
    public void accept(WorkItem item) {
        decide(item, pausable.afterProcess(item));
    }

    private void decide(WorkItem item, boolean pausedForIt) {
        if (item.failure() == null) {
            decided.accept(item);
        } else if (item.decodeError() == null && item.attempt() < maxAttempts()) {
            LOG.warn("Record {} failed on delivery {} of {}; released for another delivery: {}", item, item.attempt(),
                    maxAttempts(), item.failure().toString());
            release(item);
        } else if (pausedForIt && item.decodeError() == null && !limit.isLast(item.attempt())) {
            LOG.warn("Record {} failed on delivery {} and paused its task; released for another delivery: {}", item,
                    item.attempt(), item.failure().toString());
            release(item);
        } else {
            failedForGood(item);
        }
    }

    private void release(WorkItem item) {
        item.fail(RELEASED, item.failure());
        item.markReleased();
        decided.accept(item);
    }

    /** The record failed its last delivery, or cannot be deserialized: dead letter, else reject. */
    void failedForGood(WorkItem item) {
        String reason = item.decodeError() != null ? "deserialization"
                : STALLED.equals(item.failureReason()) ? STALLED : "failed";
        if (publisher == null) {
            String why = item.decodeError() != null ? "cannot be deserialized"
                    : "failed on delivery " + item.attempt() + " of " + maxAttempts();
            try {
                exceptionHandler.handleException("Record " + item + " " + why + "; it is rejected (no deadLetterTopic)",
                        item.failure());
            } catch (RuntimeException e) {
                // a handler that throws must neither leave the record acquired and renewed for ever nor, on the
                // fetch thread (a record that cannot be deserialized, a stall), end the task's poll or leave
                LOG.warn("The exception handler failed on {} (the record is rejected): {}", item, e.toString());
            }
            decided.accept(item);
            return;
        }
        ProducerRecord<byte[], byte[]> letter = letters.deadLetter(item, deadLetterTopic, reason, item.failure(),
                item.attempt());
        letter.headers().add(DLT_DELIVERY_COUNT,
                Integer.toString(item.attempt()).getBytes(StandardCharsets.UTF_8));
        publisher.publish(List.of(item), r -> letter, new LetterPublisher.Callback() {
            @Override
            public void acked() {
                item.markDeadLettered();
                decided.accept(item);
            }

            @Override
            public void troubled(WorkItem record, String topic, Exception error) {
                troubled.incrementAndGet();
                metrics.deadLetterTrouble("the dead letter of " + record + " to " + topic + " is not acknowledged ("
                                          + error + "); the record stays acquired, its lock renewed, and is retried");
            }

            @Override
            public void recovered(WorkItem record) {
                if (troubled.decrementAndGet() == 0) {
                    metrics.deadLetterTrouble(null);
                }
            }
        });
    }
}
