package dev.kafkafetch.dispatch;

import org.apache.camel.AsyncCallback;

/** Runs one record through the route. */
@FunctionalInterface
public interface ItemProcessor {

    /**
     * Processes the item, calling {@code callback.done(doneSync)} exactly once when it is finished, as Camel's
     * {@link org.apache.camel.AsyncProcessor} does.
     *
     * @return true if processing completed synchronously
     */
    boolean process(WorkItem item, AsyncCallback callback);
}
