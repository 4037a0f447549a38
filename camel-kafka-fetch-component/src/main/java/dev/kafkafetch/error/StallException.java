package dev.kafkafetch.error;

import dev.kafkafetch.dispatch.WorkItem;

/** A record has been in the route longer than stallTimeoutMs; carries the worker thread's stack when known. */
public final class StallException extends Exception {

    public StallException(WorkItem item, long stallTimeoutMs, Thread worker) {
        super("Record " + item + " has been in the route for more than " + stallTimeoutMs + " ms"
              + (worker != null ? " on thread " + worker.getName() : ""));
        if (worker != null) {
            setStackTrace(worker.getStackTrace());
        }
    }
}
