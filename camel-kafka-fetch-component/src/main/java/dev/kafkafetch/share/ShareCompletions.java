package dev.kafkafetch.share;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.dispatch.WorkItem;

/**
 * Records whose outcome is decided (by a worker, or by a dead-letter acknowledgement), on their way to the fetch
 * thread, which alone acknowledges them to the broker. {@link #offer} never blocks; the fetch thread waits for the
 * next completion, a stop signal or its deadline, whichever comes first.
 */
final class ShareCompletions {

    private static final Object SIGNAL = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

    /** Any thread: hands a decided record to the fetch thread. */
    void offer(WorkItem item) {
        queue.offer(item);
    }

    /** Any thread: ends the fetch thread's current wait (a stop request). */
    void signal() {
        queue.offer(SIGNAL);
    }

    /**
     * Fetch thread: waits up to {@code timeoutMs} for something to arrive, then moves every decided record into
     * {@code into}.
     */
    void await(long timeoutMs, List<WorkItem> into) throws InterruptedException {
        Object first = timeoutMs > 0 ? queue.poll(timeoutMs, TimeUnit.MILLISECONDS) : queue.poll();
        while (first != null) {
            if (first instanceof WorkItem item) {
                into.add(item);
            }
            first = queue.poll();
        }
    }
}
