package dev.kafkafetch.error;

import java.util.concurrent.TimeUnit;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds records that have been in the route longer than {@code stallTimeoutMs}: reports each once (WARN with the
 * worker's stack, the task's last error and stall count) and, with a dead-letter topic, gives up on it so its
 * partition moves on: the dispatcher releases its lane and slot and the record is dead-lettered (each record of a
 * batch as itself). Its thread may stay stuck: at most {@code maxConcurrency} given-up records may hold their threads
 * at once; beyond that a stalled record keeps its slot (and this is reported) until one of them comes back, so a route
 * that never returns cannot grow the worker threads without bound. Runs on the fetch thread.
 */
public final class StallDetector {

    private static final Logger LOG = LoggerFactory.getLogger(StallDetector.class);

    private final long stallTimeoutMs;
    private final Dispatcher dispatcher;
    private final FailureRouter failures;
    private final boolean deadLettering;
    private final TaskMetrics metrics;
    private long lastCheckMs;

    /** @param deadLettering whether stalled records are dead-lettered (there is a dead-letter topic) */
    public StallDetector(long stallTimeoutMs, Dispatcher dispatcher, FailureRouter failures, boolean deadLettering,
                         TaskMetrics metrics) {
        this.stallTimeoutMs = stallTimeoutMs;
        this.dispatcher = dispatcher;
        this.failures = failures;
        this.deadLettering = deadLettering;
        this.metrics = metrics;
    }

    /** How long the fetch thread may wait before the next check is due; Long.MAX_VALUE when stalls are not checked. */
    public long millisUntilDue(long nowMs) {
        return stallTimeoutMs <= 0 ? Long.MAX_VALUE : Math.max(0, lastCheckMs + checkInterval() - nowMs);
    }

    private long checkInterval() {
        return Math.min(1000, Math.max(10, stallTimeoutMs / 4));
    }

    public void check(long nowMs) {
        if (stallTimeoutMs <= 0 || nowMs - lastCheckMs < checkInterval()) {
            return;
        }
        lastCheckMs = nowMs;
        long nowNanos = System.nanoTime();
        boolean capped = false;
        for (WorkItem item : dispatcher.running()) {
            long startedAt = item.startedAtNanos();
            if (startedAt == 0 || TimeUnit.NANOSECONDS.toMillis(nowNanos - startedAt) < stallTimeoutMs) {
                continue;
            }
            StallException stall = new StallException(item, stallTimeoutMs, item.worker());
            if (!item.stallReported()) {
                item.markStallReported();
                metrics.stalled();
                metrics.error(stall);
                LOG.warn("{}{}", stall.getMessage(), deadLettering ? "; dead-lettering it" : "", stall);
            }
            if (deadLettering) {
                if (dispatcher.abandon(item)) {
                    failures.deadLetterStalled(item, stall);
                } else if (item.state() == WorkItem.RUNNING) {
                    capped = true;
                }
            }
        }
        if (capped) {
            metrics.error("stalled records are still running: " + dispatcher.load().abandonedRunning()
                          + " given-up records hold their threads (at most maxConcurrency); the others keep their"
                          + " slots until a thread comes back");
        }
    }
}
