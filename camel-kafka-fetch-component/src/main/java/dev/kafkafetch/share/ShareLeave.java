package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.StallDetector;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.task.StopSignal;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a share fetch task's member leaves its share group, at a stop, a reconnect, a suspend or a Pausable EIP pause,
 * on the fetch thread.
 * <p>
 * Guarantee: a record that has not started is released while it has deliveries left and run when it is on its last
 * delivery, and that includes the records the client acquired after the last poll (a fetch answered after a poll
 * timed out or was woken by the stop): a last poll takes them in before the close, which would give them back (any
 * give-back then, an explicit RELEASE, the close or a lock timeout, makes the broker archive it: ShareBrokerReleaseIT);
 * running records keep their locks renewed while they finish, within shutdownTimeout, and are
 * acknowledged with their outcome; the acknowledgements are committed before the consumer closes, and an interrupt
 * (a forced shutdown) ends only the wait, never that last commit. What still runs at the deadline is given back by the
 * close. Afterwards the task holds nothing.
 */
final class ShareLeave {

    private static final Logger LOG = LoggerFactory.getLogger(ShareLeave.class);
    /** Poll timeout while renewed records have not been handed back yet. */
    static final long RENEWING_POLL_MS = 50;
    /**
     * The last poll before the close, when the client may still hold records no poll returned: long enough for a
     * fetch the broker has answered to arrive, short enough not to hold up a stop.
     */
    static final long TAKE_IN_POLL_MS = 200;

    private final String threadName;
    private final ShareSettings settings;
    private final HeldRecords held;
    private final ShareIntake intake;
    private final Dispatcher dispatcher;
    private final StallDetector stalls;
    private final DeliveryLimit limit;
    private final ShareCompletions completions;
    private final TaskMetrics metrics;
    private final LongConsumer publishSnapshot;

    ShareLeave(String threadName, ShareSettings settings, HeldRecords held, ShareIntake intake, Dispatcher dispatcher,
               StallDetector stalls, DeliveryLimit limit, ShareCompletions completions, TaskMetrics metrics,
               LongConsumer publishSnapshot) {
        this.threadName = threadName;
        this.settings = settings;
        this.held = held;
        this.intake = intake;
        this.dispatcher = dispatcher;
        this.stalls = stalls;
        this.limit = limit;
        this.completions = completions;
        this.metrics = metrics;
        this.publishSnapshot = publishSnapshot;
    }

    /**
     * Releases what has not started and has deliveries left, runs what is on its last delivery, waits for running
     * records (bounded by shutdownTimeout, renewing their locks) and acknowledges them, commits the acknowledgements
     * and closes {@code client}. Records still running then are given back by the close (the broker delivers them
     * again, or archives them if that was their last delivery).
     */
    void close(ShareClient client) {
        giveBackNotStarted();
        long deadline = System.currentTimeMillis() + settings.shutdownTimeoutMs();
        try {
            while (System.currentTimeMillis() < deadline) {
                // what is queued now is on its last delivery and must run, also when a Pausable EIP pause held the
                // dispatcher (on a worker, whose outcome then wakes this loop)
                dispatcher.hold(false);
                long now = System.currentTimeMillis();
                if (held.inClient() + held.renewing() == 0) {
                    if (!intake.fetchOutstanding()) {
                        break;
                    }
                    // what the client acquired after the last poll would be given back by the close: take it in
                    ConsumerRecords<byte[], byte[]> late = poll(client, Math.min(TAKE_IN_POLL_MS, deadline - now));
                    intake.take(late, now, true);
                    if (late.isEmpty()) {
                        break;
                    }
                    LOG.info("Share fetch task {} took in {} records its client acquired after the last poll, before"
                             + " leaving",
                            threadName, late.count());
                } else if (held.inClient() > 0) {
                    intake.awaitOutcomes(now,
                            Math.min(Math.min(intake.renewAtMs(), stalls.nextCheckAtMs(now)), deadline));
                    stalls.check(System.currentTimeMillis());
                    long start = System.currentTimeMillis();
                    if (held.inClient() > 0 && start >= intake.renewAtMs() && intake.renew(start)) {
                        intake.take(poll(client, 0), start, true);
                    }
                } else {
                    intake.expireRenewals(now);
                    intake.take(poll(client, RENEWING_POLL_MS), now, true);
                }
                publishSnapshot.accept(System.currentTimeMillis());
            }
        } catch (InterruptedException e) {
            LOG.warn("Share fetch task {} interrupted while its records finish; closing now", threadName);
        } catch (RuntimeException e) {
            metrics.error(e);
        }
        dispatcher.hold(true);
        int notRun = dispatcher.cancel(item -> true).size();
        if (notRun > 0) {
            LOG.warn("Share fetch task {}: {} records on their last delivery did not start within shutdownTimeout;"
                     + " the close gives them back and the broker archives them",
                    threadName, notRun);
        }
        // an interrupt (a forced shutdown) ends the wait, not the last acknowledgements
        boolean interrupted = Thread.interrupted();
        try {
            client.commitSync(settings.commitTimeoutMs());
        } catch (RuntimeException e) {
            metrics.error(e);
            LOG.warn("Share fetch task {}: the last acknowledgements were not committed: {}", threadName, e.toString());
        }
        client.close(Math.min(settings.commitTimeoutMs(), 5000));
        held.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A poll while leaving; a wakeup (a second stop request, a suspend during a stop) is one-shot, so the poll is made
     * once more rather than ending the wait for running records.
     */
    private static ConsumerRecords<byte[], byte[]> poll(ShareClient client, long timeoutMs) {
        try {
            return client.poll(timeoutMs);
        } catch (WakeupException e) {
            return client.poll(timeoutMs);
        }
    }

    /**
     * Suspended or paused, after {@link #close}: asks {@code paused} every {@code checkEveryMs} until it is false or a
     * stop is requested (a resume and a stop signal the completions, ending a wait at once); outcomes arriving
     * meanwhile belong to records the closed consumer gave back, so nothing is acknowledged.
     */
    void awaitResume(BooleanSupplier paused, long checkEveryMs, StopSignal stop) throws InterruptedException {
        List<WorkItem> late = new ArrayList<>();
        while (!stop.requested() && paused.getAsBoolean()) {
            completions.await(checkEveryMs, late);
            late.clear();
        }
    }

    /**
     * Records not started are given back when deliveries remain; those on their last delivery run, as any give-back
     * would archive them unrouted.
     */
    private void giveBackNotStarted() {
        for (WorkItem item : dispatcher.cancel(item -> !limit.isLast(item.attempt()))) {
            held.decided(item, AcknowledgeType.RELEASE);
        }
    }
}
