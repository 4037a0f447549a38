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
 * (a forced shutdown) ends only the wait, never that last commit. A poll that fails meanwhile is reported and the leave
 * goes on. What still runs at the deadline is given back by the close. Afterwards the task holds nothing. The tasks
 * of a route that a stop or suspend asks to leave do it together ({@link LeavingTogether}): what one gives back is sent
 * once no other's client may acquire (the idle ones have closed, the rest said they hold records; unless locks must be
 * renewed first), and an idle client closes only after a poll that began once the last give-back was committed (a
 * poll the stop woke may have sent one: that counts at once), so no sibling's close gives back what it acquired from
 * another.
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
    /** Failed polls after which the leave stops trying to take in what the client may hold. */
    private static final int MAX_TAKE_IN_FAILURES = 3;
    /** Wakeups one poll outlasts (each is one-shot: a stop, a suspend, a second stop request). */
    private static final int MAX_WAKEUPS = 3;

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
    private final LeavingTogether together;
    private int failedPolls;

    ShareLeave(String threadName, ShareSettings settings, HeldRecords held, ShareIntake intake, Dispatcher dispatcher,
               StallDetector stalls, DeliveryLimit limit, ShareCompletions completions, TaskMetrics metrics,
               LongConsumer publishSnapshot, LeavingTogether together) {
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
        this.together = together;
    }

    /**
     * Releases what has not started and has deliveries left, runs what is on its last delivery, waits for running
     * records (bounded by shutdownTimeout, renewing their locks) and acknowledges them, commits the acknowledgements
     * and closes {@code client}. Records still running then are given back by the close (the broker delivers them
     * again, or archives them if that was their last delivery).
     */
    void close(ShareClient client) {
        failedPolls = 0;
        giveBackNotStarted();
        long deadline = System.currentTimeMillis() + settings.shutdownTimeoutMs();
        try {
            if (held.takeUncertainSend()) {
                // the poll a stop woke may have sent a give-back already: the siblings poll once more before closing
                together.beginGiveBack(this, 0);
                together.endGiveBack();
            }
            while (System.currentTimeMillis() < deadline) {
                // what is queued now is on its last delivery and must run, also when a Pausable EIP pause held the
                // dispatcher (on a worker, whose outcome then wakes this loop)
                dispatcher.hold(false);
                long now = System.currentTimeMillis();
                if (held.inClient() > 0) {
                    together.busy(this); // its client fetches nothing while it holds records
                }
                if (held.inClient() + held.renewing() == 0) {
                    if (held.givingBack()) {
                        // once no sibling's client may acquire (the idle ones closed), none takes what goes back
                        together.beginGiveBack(this, deadline);
                        sendGiveBacks(() -> commit(client));
                        continue;
                    }
                    if (!intake.fetchOutstanding()) {
                        break; // the client fetches no more: its close gives nothing back
                    }
                    // what the client acquired after the last poll would be given back by the close: take it in
                    long seen = together.fetching(this);
                    ConsumerRecords<byte[], byte[]> late = poll(client, Math.min(TAKE_IN_POLL_MS, deadline - now));
                    if (late == null) {
                        if (failedPolls < MAX_TAKE_IN_FAILURES) {
                            continue; // an error a poll reports once (and clears): the next may take the records in
                        }
                        break; // nothing is held: what the client may hold goes back with the close
                    }
                    intake.take(late, now, true);
                    if (late.isEmpty()) {
                        if (together.mayClose(this, seen)) {
                            break;
                        }
                        continue; // a sibling's give-back was under way: what it gave back may come to this client
                    }
                    together.busy(this);
                    LOG.info("Share fetch task {} took in {} records its client acquired after the last poll, before"
                             + " leaving",
                            threadName, late.count());
                } else if (held.inClient() > 0) {
                    intake.awaitOutcomes(now,
                            Math.min(Math.min(intake.renewAtMs(), stalls.nextCheckAtMs(now)), deadline));
                    stalls.check(System.currentTimeMillis());
                    long start = System.currentTimeMillis();
                    if (held.inClient() > 0 && start >= intake.renewAtMs()) {
                        // the locks cannot wait for the siblings: what was given back goes with the renewal
                        sendNow(() -> {
                            if (intake.renew(start)) {
                                take(poll(client, 0), start);
                            }
                        });
                    }
                } else {
                    intake.expireRenewals(now);
                    sendNow(() -> {
                        if (!take(poll(client, RENEWING_POLL_MS), now)) {
                            // a poll failed: wait as a poll would before the next (outcomes end the wait)
                            intake.awaitOutcomes(now, Math.min(now + RENEWING_POLL_MS, deadline));
                        }
                    });
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

    /** Renewals cannot wait: sends (with {@code send}) at once, as a give-back when records were released. */
    private void sendNow(Sending send) throws InterruptedException {
        if (held.givingBack()) {
            together.beginGiveBack(this, 0);
            sendGiveBacks(send);
        } else {
            send.run();
        }
    }

    /** Sends what was released, after {@link LeavingTogether#beginGiveBack}; the siblings hear when it is done. */
    private void sendGiveBacks(Sending send) throws InterruptedException {
        try {
            send.run();
        } finally {
            held.sent();
            together.endGiveBack();
        }
    }

    /** Commits the acknowledgements; a failure is reported (the close's last commit sends what is left). */
    private void commit(ShareClient client) {
        try {
            client.commitSync(settings.commitTimeoutMs());
        } catch (RuntimeException e) {
            metrics.error(e);
        }
    }

    /** A client call that sends acknowledgements. */
    private interface Sending {
        void run() throws InterruptedException;
    }

    /**
     * A poll while leaving, or null when it failed. A wakeup (a second stop request, a suspend during a stop) is
     * one-shot, so the poll is made again; a failed poll is counted (the first one reported) and the leave goes on
     * (bounded by shutdownTimeout), as ending it would give back, and so archive, the records on their last delivery.
     */
    private ConsumerRecords<byte[], byte[]> poll(ShareClient client, long timeoutMs) {
        try {
            for (int wakeups = 0;; wakeups++) {
                try {
                    ConsumerRecords<byte[], byte[]> records = client.poll(timeoutMs);
                    held.sent();
                    return records;
                } catch (WakeupException e) {
                    if (wakeups == MAX_WAKEUPS) {
                        throw e;
                    }
                }
            }
        } catch (RuntimeException e) {
            metrics.pollFailed();
            intake.pollFailed();
            if (failedPolls++ == 0) {
                metrics.error(e);
                LOG.warn("Share fetch task {}: a poll failed while leaving the share group; records still held finish"
                         + " first: {}",
                        threadName, e.toString());
            }
            return null;
        }
    }

    /** Takes in what a poll returned; false when the poll failed. */
    private boolean take(ConsumerRecords<byte[], byte[]> records, long acquiredAtMs) {
        if (records == null) {
            return false;
        }
        intake.take(records, acquiredAtMs, true);
        return true;
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
