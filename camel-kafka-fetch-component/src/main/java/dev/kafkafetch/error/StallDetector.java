package dev.kafkafetch.error;

import java.util.concurrent.TimeUnit;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds records that have been in the route longer than {@code stallTimeoutMs}: reports each once (WARN with the
 * worker's stack, the task's last error and stall count) and, with a {@link GiveUp} action (the classic scheme: when
 * there is a dead-letter topic; the share scheme: always), gives up on it so its partition moves on: the dispatcher
 * releases its lane and slot and the action decides the record's fate (dead letter; for a share record also a release
 * for another delivery). Its thread may stay stuck: at most {@code maxConcurrency} given-up records may hold their
 * threads at once; beyond that a stalled record keeps its slot (and this is reported) until one of them comes back,
 * so a route that never returns cannot grow the worker threads without bound. Runs on the fetch thread.
 */
public final class StallDetector {

    /** What becomes of a stalled record once the dispatcher gave up on it. */
    public interface GiveUp {
        void stalled(WorkItem item, StallException stall);
    }

    private static final Logger LOG = LoggerFactory.getLogger(StallDetector.class);

    private final long stallTimeoutMs;
    private final Dispatcher dispatcher;
    private final GiveUp giveUp;
    private final TaskMetrics metrics;
    private long lastCheckMs;

    /** @param giveUp null: stalled records are only reported, and keep running */
    public StallDetector(long stallTimeoutMs, Dispatcher dispatcher, GiveUp giveUp, TaskMetrics metrics) {
        this.stallTimeoutMs = stallTimeoutMs;
        this.dispatcher = dispatcher;
        this.giveUp = giveUp;
        this.metrics = metrics;
    }

    /** How long the fetch thread may wait before the next check is due; Long.MAX_VALUE when stalls are not checked. */
    public long millisUntilDue(long nowMs) {
        return stallTimeoutMs <= 0 ? Long.MAX_VALUE : Math.max(0, lastCheckMs + checkInterval() - nowMs);
    }

    /** When the next check is due (epoch ms); Long.MAX_VALUE when stalls are not checked. */
    public long nextCheckAtMs(long nowMs) {
        long in = millisUntilDue(nowMs);
        return in == Long.MAX_VALUE ? Long.MAX_VALUE : nowMs + in;
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
        // a record's worker starts it after it took its slot: only those that took it long enough ago can have stalled
        for (WorkItem item : dispatcher.runningSince(nowNanos - TimeUnit.MILLISECONDS.toNanos(stallTimeoutMs))) {
            long startedAt = item.startedAtNanos();
            if (startedAt == 0 || TimeUnit.NANOSECONDS.toMillis(nowNanos - startedAt) < stallTimeoutMs) {
                continue;
            }
            // a stall is reported once, and its stack (a safepoint for the worker) taken only when it is used
            StallException stall = null;
            if (!item.stallReported()) {
                stall = stallOf(item);
                item.markStallReported();
                metrics.stalled();
                metrics.error(stall);
                LOG.warn("{}{}", stall.getMessage(), giveUp != null ? "; giving up on it" : "", stall);
            }
            if (giveUp != null) {
                if (dispatcher.abandon(item)) {
                    giveUp.stalled(item, stall != null ? stall : stallOf(item));
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

    private StallException stallOf(WorkItem item) {
        return new StallException(item, stallTimeoutMs, item.worker(), item.inAsyncStep());
    }
}
