package dev.kafkafetch.error;

import dev.kafkafetch.dispatch.WorkItem;

/**
 * A record has been in the route longer than stallTimeoutMs; carries the stack of the worker thread running it, when one
 * does (none in an asynchronous step of the route).
 */
public final class StallException extends Exception {

    public StallException(WorkItem item, long stallTimeoutMs, Thread worker, boolean inAsyncStep) {
        super("Record " + item + " has been in the route for more than " + stallTimeoutMs + " ms"
              + (worker != null ? " on thread " + worker.getName()
                      : inAsyncStep ? ", in an asynchronous step (no thread holds it)" : ""));
        if (worker != null) {
            setStackTrace(worker.getStackTrace());
        }
    }
}
