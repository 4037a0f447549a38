package dev.kafkafetch.error;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import org.apache.camel.resume.ConsumerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Pausable EIP listener says of a record (or batch) the route finished, asked the same way by both schemes on
 * the worker that ran it.
 * <p>
 * Guarantee: a listener that throws never escapes to the worker: it asks for no pause, and a record that had not
 * failed now fails with the listener's exception, as if the route had thrown it.
 */
public enum ListenerVerdict {

    /** No listener, or it lets the task go on. */
    GO_ON,
    /** The listener asks the task to pause. */
    PAUSE,
    /** The listener threw on a record that had not failed: the record now fails with the listener's exception. */
    FAILED_RECORD;

    private static final Logger LOG = LoggerFactory.getLogger(ListenerVerdict.class);

    /** Asks {@code listener} (null: none) about {@code item}. */
    public static ListenerVerdict ask(ConsumerListener<Object, ProcessingResult> listener, WorkItem item) {
        if (listener == null) {
            return GO_ON;
        }
        try {
            return listener.afterProcess(ProcessingResult.of(item)) ? GO_ON : PAUSE;
        } catch (RuntimeException e) {
            LOG.warn("The consumer listener failed on {}; the record counts as failed: {}", item, e.toString());
            if (item.failure() == null) {
                item.fail("failed", e);
                return FAILED_RECORD;
            }
            return GO_ON;
        }
    }
}
