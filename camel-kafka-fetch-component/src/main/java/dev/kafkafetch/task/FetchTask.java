package dev.kafkafetch.task;

import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.resume.ConsumerListener;

/**
 * One fetch task as its consumer sees it, whichever the scheme ({@link KafkaFetchRecords} for consumer groups, the
 * share fetch task for share groups): it runs on its own thread with its own client, and every method here may be
 * called from any other thread without blocking it or touching its client (a stop request only wakes it up).
 */
public interface FetchTask extends Runnable {

    TaskState state();

    /** The latest snapshot published by the fetch thread. Never blocks. */
    TaskSnapshot snapshot();

    /** The name of the task's thread, which also names it in logs, health checks and the console. */
    String threadName();

    /** The live reachability of the task's current client (null while it has none); reads the client's metrics. */
    ClientReachability reachability();

    /** Asks the task to pause (the route is suspended): it takes no new records until {@link #requestResume()}. */
    void requestPause();

    void requestResume();

    /**
     * Camel's Pausable EIP: the listener hears of every record the route finished and may pause the task, which then
     * asks its resume check until it says go on (null: no listener).
     */
    void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener);

    /** Asks the task to stop: it settles what runs (bounded by shutdownTimeout) and closes its client. */
    void requestStop();

    /** Waits until the task's thread has closed its client and ended; false when the time ran out first. */
    boolean awaitTermination(long timeoutMs) throws InterruptedException;
}
