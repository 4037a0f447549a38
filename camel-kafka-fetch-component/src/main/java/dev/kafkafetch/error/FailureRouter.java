package dev.kafkafetch.error;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.spi.ExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, on the worker that finished a record (or batch), where it goes next, then hands it to the fetch thread:
 * <ol>
 * <li>a Pausable EIP listener may pause the task (and, for a failed record, ask for it again after the resume);</li>
 * <li>a record still failed after Camel's error handler, with attempts left under {@code breakOnFirstError}, asks for
 * a seek back to it (nothing of its partition starts meanwhile);</li>
 * <li>else, with a dead-letter topic, each of its records is dead-lettered as itself and handed back only once the
 * broker acknowledged all of them;</li>
 * <li>else it is logged and counted finished, as camel-kafka does.</li>
 * </ol>
 * A record that could not be deserialized never asks for a seek back (it would fail again). A listener that throws
 * fails the record like the route would; the worker lives on.
 * <p>
 * Guarantee: every record given to {@link #accept} is handed back exactly once through {@code completed} (a record
 * whose dead letter the broker keeps rejecting stays unfinished, and its trouble is reported), so nothing counts
 * finished that was neither processed nor safely dead-lettered (DESIGN §6).
 */
public final class FailureRouter implements Consumer<WorkItem> {

    private static final Logger LOG = LoggerFactory.getLogger(FailureRouter.class);

    private final boolean breakOnFirstError;
    private final int maxAttempts;
    private final DeadLetterPublisher deadLetters;
    private final ExceptionHandler exceptionHandler;
    private final TaskMetrics metrics;
    private final PollExceptionStrategy pollErrors;
    private final Consumer<WorkItem> completed;
    private final Runnable listenerPause;
    private final Runnable stopTask;
    private final AtomicInteger troubled = new AtomicInteger();
    private volatile ConsumerListener<Object, ProcessingResult> listener;

    /**
     * @param deadLetters   null without a dead-letter topic
     * @param pollErrors    a dead letter the broker rejects stops the task when this decides STOP for its error
     * @param completed     hands a record back to the fetch thread
     * @param listenerPause asks the fetch task to pause for the Pausable EIP listener
     * @param stopTask      asks the fetch task to stop
     */
    public FailureRouter(boolean breakOnFirstError, int maxAttempts, DeadLetterPublisher deadLetters,
                         ExceptionHandler exceptionHandler, TaskMetrics metrics, PollExceptionStrategy pollErrors,
                         Consumer<WorkItem> completed, Runnable listenerPause, Runnable stopTask) {
        this.breakOnFirstError = breakOnFirstError;
        this.maxAttempts = maxAttempts;
        this.deadLetters = deadLetters;
        this.exceptionHandler = exceptionHandler;
        this.metrics = metrics;
        this.pollErrors = pollErrors;
        this.completed = completed;
        this.listenerPause = listenerPause;
        this.stopTask = stopTask;
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
        boolean listenerFailed = false;
        ConsumerListener<Object, ProcessingResult> l = listener;
        if (l != null) {
            boolean pause;
            try {
                pause = !l.afterProcess(ProcessingResult.of(item));
            } catch (RuntimeException e) {
                LOG.warn("The consumer listener failed on {}; the record counts as failed: {}", item, e.toString());
                if (item.failure() == null) {
                    item.fail("failed", e);
                    listenerFailed = true;
                }
                pause = false;
            }
            if (pause) {
                listenerPause.run();
                if (item.failure() != null && item.decodeError() == null) {
                    item.requestBreak(); // delivered again after the resume
                    completed.accept(item);
                    return;
                }
            }
        }
        if (item.failure() == null) {
            completed.accept(item);
        } else if (breakOnFirstError && item.decodeError() == null
                   && (maxAttempts == 0 || item.attempt() < maxAttempts)) {
            item.requestBreak();
            completed.accept(item);
        } else if (deadLetters != null) {
            deadLetter(item);
        } else {
            if (breakOnFirstError && item.decodeError() == null) {
                exceptionHandler.handleException("Record " + item + " failed " + item.attempt()
                                                 + " times (breakOnFirstErrorMaxAttempts); it is skipped",
                        item.failure());
            } else if (listenerFailed) {
                exceptionHandler.handleException("Record " + item + " failed in the consumer listener; it is skipped",
                        item.failure());
            }
            completed.accept(item);
        }
    }

    /** The fetch thread gave up on a stalled record: dead-letter it (each record of a batch as itself). */
    public void deadLetterStalled(WorkItem item, StallException stall) {
        item.fail("stalled", stall);
        deadLetter(item);
    }

    private void deadLetter(WorkItem item) {
        String reason = item.failureReason() != null ? item.failureReason() : "failed";
        item.records().forEach(r -> r.partitionState().deadLetterSent());
        deadLetters.publish(item.records(), reason, item.failure(), item.attempt(), new DeadLetterPublisher.Callback() {
            @Override
            public void acked() {
                item.markDeadLettered();
                completed.accept(item);
                // after the completion is queued: revoke and stop see one or the other
                item.records().forEach(r -> r.partitionState().deadLetterAcked());
            }

            @Override
            public void troubled(WorkItem record, Exception error) {
                troubled.incrementAndGet();
                metrics.deadLetterTrouble("the dead letter of " + record + " to " + deadLetters.topic()
                                          + " is not acknowledged (" + error
                                          + "); the record stays unfinished and is retried");
                if (pollErrors.decide(error) == PollOnError.STOP) {
                    stopTask.run();
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
}
