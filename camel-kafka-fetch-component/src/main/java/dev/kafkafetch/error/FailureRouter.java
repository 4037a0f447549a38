package dev.kafkafetch.error;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, on the worker that finished a record (or batch), where it goes next, then hands it to the fetch thread:
 * <ol>
 * <li>a Pausable EIP listener may pause the task (and, for a failed record, ask for it again after the resume);</li>
 * <li>a record still failed after Camel's error handler, with attempts left under {@code breakOnFirstError}, asks for
 * a seek back to it (nothing of its partition starts meanwhile);</li>
 * <li>else each of its records with a retry topic left goes there (to be routed again after a delay), the others to
 * the dead-letter topic, each as itself; the item is handed back once the broker acknowledged all its letters (with
 * transacted, at once: each dead letter is held as its record's only output and sent in the fetch task's transaction
 * that commits the record's offset);</li>
 * <li>else it is logged and counted finished, as camel-kafka does.</li>
 * </ol>
 * A record that could not be deserialized is never retried (it would fail again). A listener that throws fails the
 * record like the route would; the worker lives on.
 * <p>
 * Guarantee: every item given to {@link #accept} is handed back exactly once through the task's signals (one whose
 * letter the broker keeps rejecting stays unfinished, and its trouble is reported), so nothing counts finished that
 * was neither processed nor safely handed over (docs/design.md §6).
 */
public final class FailureRouter implements Consumer<WorkItem> {

    private static final Logger LOG = LoggerFactory.getLogger(FailureRouter.class);

    /** How the router reaches its fetch task. */
    public interface TaskSignals {
        /** Hands a record (or batch) back to the fetch thread. */
        void completed(WorkItem item);

        /** A Pausable EIP listener asked for a pause. */
        void pauseForListener();

        /** A letter the broker rejects for good, and the poll-error strategy says STOP. */
        void stop();
    }

    /** The dead-letter reason of a record an operator parked. */
    public static final String PARKED = "parked";

    private final FailureRules rules;
    private final Letters letters;
    private final LetterPublisher publisher;
    private final ExceptionHandler exceptionHandler;
    private final TaskMetrics metrics;
    private final PollExceptionStrategy pollErrors;
    private final TaskSignals task;
    private final AtomicInteger troubled = new AtomicInteger();
    private volatile ConsumerListener<Object, ProcessingResult> listener;

    /**
     * @param publisher  null unless the rules send letters
     * @param pollErrors a letter the broker rejects stops the task when this decides STOP for its error
     */
    public FailureRouter(FailureRules rules, LetterPublisher publisher, ExceptionHandler exceptionHandler,
                         TaskMetrics metrics, PollExceptionStrategy pollErrors, TaskSignals task) {
        this.rules = rules;
        this.letters = new Letters(rules.groupId(), rules.retries());
        this.publisher = publisher;
        this.exceptionHandler = exceptionHandler;
        this.metrics = metrics;
        this.pollErrors = pollErrors;
        this.task = task;
    }

    public void setListener(ConsumerListener<Object, ProcessingResult> listener) {
        this.listener = listener;
    }

    public ConsumerListener<Object, ProcessingResult> listener() {
        return listener;
    }

    /** A worker finished running the item (successfully, handled, or failed). */
    @Override
    public void accept(WorkItem item) {
        ListenerVerdict verdict = ListenerVerdict.ask(listener, item);
        boolean listenerFailed = verdict == ListenerVerdict.FAILED_RECORD;
        if (verdict == ListenerVerdict.PAUSE) {
            task.pauseForListener();
            if (item.failure() != null && item.decodeError() == null) {
                item.requestBreak(); // delivered again after the resume
                task.completed(item);
                return;
            }
        }
        if (item.failure() == null) {
            task.completed(item);
        } else if (rules.breakOnFirstError() && item.decodeError() == null
                   && (rules.maxAttempts() == 0 || item.attempt() < rules.maxAttempts())) {
            item.requestBreak();
            task.completed(item);
        } else {
            handOn(item, listenerFailed);
        }
    }

    /** The fetch thread gave up on a stalled record: dead-letter it (each record of a batch as itself). */
    public void deadLetterStalled(WorkItem item, StallException stall) {
        item.fail("stalled", stall);
        handOn(item, false);
    }

    /**
     * The fetch thread took a record out of the route for an operator (it was never started, or the dispatcher gave up
     * on it): dead-letter it now with reason {@code parked}, never to a retry topic.
     */
    public void park(WorkItem item, Exception why) {
        item.fail(PARKED, why);
        handOn(item, false);
    }

    /** Sends each record of a failed item to its next retry topic or the dead-letter topic; logs the rest. */
    private void handOn(WorkItem item, boolean listenerFailed) {
        Map<WorkItem, ProducerRecord<byte[], byte[]>> out = new IdentityHashMap<>();
        List<WorkItem> skipped = new ArrayList<>();
        for (WorkItem r : item.records()) {
            ProducerRecord<byte[], byte[]> letter = letterOf(r, item);
            if (letter != null) {
                out.put(r, letter);
            } else {
                skipped.add(r);
            }
        }
        if (!skipped.isEmpty() && (rules.breakOnFirstError() || rules.retries() != null || listenerFailed)) {
            // the route's processor left it to these rules: the exception handler hears of it here
            String why = listenerFailed ? "failed in the consumer listener"
                    : item.decodeError() != null ? "could not be deserialized"
                            : "failed " + item.attempt() + " times ("
                              + (rules.retries() != null ? "retryDelays" : "breakOnFirstErrorMaxAttempts") + ")";
            try {
                exceptionHandler.handleException("Record " + item + " " + why + "; it is skipped", item.failure());
            } catch (RuntimeException e) {
                LOG.warn("The exception handler failed on {} (it is skipped all the same): {}", item, e.toString());
            }
        }
        if (out.isEmpty()) {
            task.completed(item);
            return;
        }
        if (rules.inTransaction()) {
            // no retry topics with transacted: every letter is a dead letter, sent with the record's offset
            out.forEach(WorkItem::holdDeadLetter);
            task.completed(item);
            return;
        }
        List<WorkItem> sent = new ArrayList<>(out.keySet());
        sent.forEach(r -> r.partitionState().deadLetterSent());
        publisher.publish(sent, out::get, new LetterPublisher.Callback() {
            @Override
            public void acked() {
                for (WorkItem r : sent) {
                    if (out.get(r).topic().equals(rules.deadLetterTopic())) {
                        r.markDeadLettered();
                    } else {
                        r.markRetried();
                    }
                }
                task.completed(item);
                // after the completion is queued: revoke and stop see one or the other
                sent.forEach(r -> r.partitionState().deadLetterAcked());
            }

            @Override
            public void troubled(WorkItem record, String topic, Exception error) {
                troubled.incrementAndGet();
                metrics.deadLetterTrouble("the letter of " + record + " to " + topic + " is not acknowledged ("
                                          + error + "); the record stays unfinished and is retried");
                if (pollErrors.decide(error) == PollOnError.STOP) {
                    task.stop();
                }
            }

            @Override
            public void recovered(WorkItem record) {
                if (troubled.decrementAndGet() == 0) {
                    metrics.deadLetterTrouble(null);
                }
            }
        });
    }

    /** The letter of one record of a failed item: to its next retry topic, else the dead-letter topic, else none. */
    private ProducerRecord<byte[], byte[]> letterOf(WorkItem record, WorkItem item) {
        RetryPlan retries = rules.retries();
        int attempts = Math.max(record.attempt(), item.attempt()); // a batch's deliveries count for each record
        String retryTopic = retries != null && item.decodeError() == null && !"stalled".equals(item.failureReason())
                            && !PARKED.equals(item.failureReason())
                                    ? retries.nextTopic(record.topic()) : null;
        if (retryTopic != null) {
            long due = System.currentTimeMillis() + retries.delayAfter(record.topic());
            return letters.retryLetter(record, retryTopic, item.failure(), attempts, due);
        }
        if (rules.deadLetterTopic() != null) {
            String reason = item.failureReason() != null ? item.failureReason() : "failed";
            return letters.deadLetter(record, rules.deadLetterTopic(), reason, item.failure(), attempts);
        }
        return null;
    }
}
