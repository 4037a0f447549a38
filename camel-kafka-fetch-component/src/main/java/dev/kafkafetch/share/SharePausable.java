package dev.kafkafetch.share;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.ListenerVerdict;
import org.apache.camel.resume.ConsumerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camel's Pausable EIP on one share fetch task: the route's consumer listener is told of every record the route
 * finished (on its worker) and may ask for a pause; while paused, the fetch thread asks the listener's resume check
 * ({@code afterConsume}, the EIP's until-check) every {@value #CHECK_EVERY_MS} ms, and the pause ends when it says so.
 * <p>
 * Guarantees: a pause request stops the dispatcher from starting queued records at once (before the record that asked
 * for it is handed to the fetch thread), so nothing else starts in a service that is down; the resume check runs on
 * the fetch thread only, never while the task holds records, and a check that throws keeps the task paused; a listener
 * that throws on a record fails that record, as the route would, and asks for no pause.
 */
final class SharePausable {

    /** How often a paused task asks the listener whether to resume. */
    static final long CHECK_EVERY_MS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(SharePausable.class);

    private final String taskName;
    private final Runnable holdQueued;
    private final AtomicBoolean paused = new AtomicBoolean();
    private volatile ConsumerListener<Object, ProcessingResult> listener;

    /** @param holdQueued stops the task's dispatcher from starting queued records (any thread) */
    SharePausable(String taskName, Runnable holdQueued) {
        this.taskName = taskName;
        this.holdQueued = holdQueued;
    }

    void setListener(ConsumerListener<Object, ProcessingResult> listener) {
        this.listener = listener;
    }

    /**
     * A worker: the route finished {@code item}; true when the listener asks for a pause (the dispatcher then starts
     * no queued record, and the fetch thread leaves the group at its next turn).
     */
    boolean afterProcess(WorkItem item) {
        if (ListenerVerdict.ask(listener, item) != ListenerVerdict.PAUSE) {
            return false;
        }
        holdQueued.run();
        if (paused.compareAndSet(false, true)) {
            LOG.info("Share fetch task {}: the Pausable EIP's listener asks for a pause after {}", taskName, item);
        }
        return true;
    }

    /** Any thread: whether the listener asked for a pause that its resume check has not ended yet. */
    boolean requested() {
        return paused.get();
    }

    /**
     * The fetch thread, paused and holding nothing: asks the listener's resume check (with the task as its argument)
     * and returns whether the task stays paused.
     */
    boolean stillPaused(Object task) {
        ConsumerListener<Object, ProcessingResult> l = listener;
        if (!paused.get()) {
            return false;
        }
        try {
            if (l == null || l.afterConsume(task)) {
                paused.set(false);
                LOG.info("Share fetch task {}: the Pausable EIP's check says resume", taskName);
            }
        } catch (RuntimeException e) {
            LOG.warn("Share fetch task {}: the consumer listener's resume check failed; staying paused: {}", taskName,
                    e.toString());
        }
        return paused.get();
    }
}
