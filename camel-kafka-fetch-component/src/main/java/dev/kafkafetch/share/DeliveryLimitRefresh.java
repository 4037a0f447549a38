package dev.kafkafetch.share;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a share fetch task's {@link DeliveryLimit} up to date: read once, blocking, when the task connects, then again
 * in the background (every {@value #KNOWN_EVERY_MS} ms, or every {@value #UNKNOWN_EVERY_MS} ms while it could never
 * be read), so a limit changed on the broker or readable again is picked up without an admin call on the fetch thread.
 * <p>
 * Guarantee: the fetch thread never waits for a background read ({@link #maybeRefresh} only hands it to an executor,
 * one at a time); a failed read leaves a limit once read in place (it is the best knowledge of the limit) and an
 * unknown one unknown, which {@link DeliveryLimit} treats as the lowest possible.
 */
final class DeliveryLimitRefresh {

    /** Reads the group's limit; throws when it cannot. */
    interface Reader {
        int read() throws Exception;
    }

    static final long KNOWN_EVERY_MS = 60_000;
    static final long UNKNOWN_EVERY_MS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryLimitRefresh.class);

    private final String threadName;
    private final String groupId;
    private final int maxDeliveryAttempts;
    private final DeliveryLimit limit;
    private final Reader reader;
    private final AtomicBoolean reading = new AtomicBoolean();
    // fetch thread only
    private long nextAtMs;

    DeliveryLimitRefresh(String threadName, String groupId, int maxDeliveryAttempts, DeliveryLimit limit,
                         Reader reader) {
        this.threadName = threadName;
        this.groupId = groupId;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.limit = limit;
        this.reader = reader;
    }

    /** Fetch thread, on connect: reads the limit now (an admin request bounded by its timeout). */
    void readNow(long nowMs) {
        read();
        nextAtMs = nowMs + (limit.isKnown() ? KNOWN_EVERY_MS : UNKNOWN_EVERY_MS);
    }

    /** Fetch thread, each turn of the loop: when a read is due, starts it on {@code executor}; never waits. */
    void maybeRefresh(long nowMs, Executor executor) {
        if (nowMs < nextAtMs || !reading.compareAndSet(false, true)) {
            return;
        }
        nextAtMs = nowMs + (limit.isKnown() ? KNOWN_EVERY_MS : UNKNOWN_EVERY_MS);
        try {
            executor.execute(() -> {
                try {
                    read();
                } finally {
                    reading.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            reading.set(false); // stopping: no more reads
        }
    }

    private void read() {
        boolean wasKnown = limit.isKnown();
        int before = limit.value();
        try {
            int read = reader.read();
            limit.known(read);
            if (!wasKnown || read != before) {
                LOG.info("Share fetch task {}: share group {}'s {} is {}", threadName, groupId,
                        GroupLimits.DELIVERY_COUNT_LIMIT, read);
                if (maxDeliveryAttempts > read) {
                    LOG.warn("Share fetch task {}: maxDeliveryAttempts={} is above share group {}'s {}={}: a record's"
                             + " failure is final on delivery {}",
                            threadName, maxDeliveryAttempts, groupId, GroupLimits.DELIVERY_COUNT_LIMIT, read, read);
                }
            }
        } catch (Exception e) {
            if (wasKnown) {
                LOG.debug("Share fetch task {} cannot read {} of share group {} again ({}); keeping {}", threadName,
                        GroupLimits.DELIVERY_COUNT_LIMIT, groupId, e.toString(), before);
            } else {
                LOG.warn("Share fetch task {} cannot read {} of share group {} ({}); until it can, every delivery"
                         + " from {} on counts as possibly the last (a failure there is final, and a stop runs such a"
                         + " record instead of giving it back)",
                        threadName, GroupLimits.DELIVERY_COUNT_LIMIT, groupId, e.toString(),
                        DeliveryLimit.LOWEST_POSSIBLE);
            }
        }
    }
}
