package dev.kafkafetch.task;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fetch task's stop request, and the waits that end on it: a backoff sleep or a retried step returns as soon as a
 * stop is requested, never later. Requested from any thread; waited on by the fetch thread (of a classic or a share
 * fetch task).
 */
public final class StopSignal {

    private static final Logger LOG = LoggerFactory.getLogger(StopSignal.class);

    private final CountDownLatch latch = new CountDownLatch(1);
    private volatile boolean requested;

    public void request() {
        requested = true;
        latch.countDown();
    }

    public boolean requested() {
        return requested;
    }

    /** Sleeps {@code ms}; true when the sleep ended because a stop was requested. */
    public boolean sleep(long ms) throws InterruptedException {
        return latch.await(ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code attempt} until it succeeds (true), backing off {@code backoffMs} after each failure, which is first
     * given to {@code failed}; false when it failed {@code maxAttempts} times (0 = no limit) or a stop was requested.
     */
    public boolean retry(String task, String what, int maxAttempts, long backoffMs, Consumer<RuntimeException> failed,
                         Runnable attempt)
            throws InterruptedException {
        for (int attempts = 1; !requested; attempts++) {
            try {
                attempt.run();
                return true;
            } catch (RuntimeException e) {
                failed.accept(e);
                if (maxAttempts > 0 && attempts >= maxAttempts) {
                    LOG.error("Fetch task {} gives up trying to {} after {} attempts: {}", task, what, attempts,
                            e.toString(), e);
                    return false;
                }
                LOG.warn("Fetch task {} could not {} (attempt {}), retrying in {} ms: {}", task, what, attempts,
                        backoffMs, e.toString());
                if (sleep(backoffMs)) {
                    return false;
                }
            }
        }
        return false;
    }
}
