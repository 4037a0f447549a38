package dev.kafkafetch.share;

import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The share fetch tasks of one route that leave the share group together (a stop or a suspend asks all of them).
 * <p>
 * Why: a share consumer's client goes on fetching after its last poll until it has closed, and what that fetch
 * acquires the close gives back; on a record's last delivery the broker then archives it, unrouted. What one task
 * gives back while leaving (records it had not started, failed ones to retry) is just what a sibling's fetch acquires
 * next. Guarantees: a task that holds nothing and whose client may still acquire (an idle fetcher) closes only when no
 * give-back of a sibling is under way and its last poll, which brought nothing, began after the last one was
 * committed; a task gives records back (sends their RELEASE) only once no sibling is an idle fetcher, unless their
 * locks must be renewed now, so the idle ones close first and acquire nothing from their siblings. Not covered:
 * another process's give-back, or a lock running out elsewhere, in the last moment before a close (a client does not
 * fetch while its task holds records: {@link ShareClient}'s commit waits for the answers). A task that leaves on its
 * own (a reconnect, a Pausable EIP pause) waits for nobody.
 */
final class LeavingTogether {

    /** The tasks leaving together whose clients are open. */
    private final Set<Object> leaving = new HashSet<>();
    /** The idle fetchers among them. */
    private final Set<Object> fetching = new HashSet<>();
    private int givingBack;
    private long givenBack;

    /**
     * A stop or suspend asks {@code task} to leave: it leaves with the others if its client is {@code open} (asked
     * under the same lock as {@link #left}, so a task whose client has just closed is never waited for).
     */
    synchronized void join(Object task, BooleanSupplier open) {
        if (open.getAsBoolean()) {
            leaving.add(task);
        }
    }

    /** {@code task} closed its client: {@code forget} drops it (under the lock), and nobody waits for it. */
    synchronized void left(Object task, Runnable forget) {
        forget.run();
        leaving.remove(task);
        fetching.remove(task);
        notifyAll();
    }

    /**
     * {@code task} holds nothing and polls while its client may acquire; returns the give-backs committed so far,
     * which its poll begins after.
     */
    synchronized long fetching(Object task) {
        if (leaving.contains(task)) {
            fetching.add(task);
        }
        return givenBack;
    }

    /** {@code task} holds records (or is about to give some back): it is no idle fetcher. */
    synchronized void busy(Object task) {
        if (fetching.remove(task)) {
            notifyAll();
        }
    }

    /** An idle fetcher's poll, begun after {@code seen} give-backs, brought nothing: whether it may close now. */
    synchronized boolean mayClose(Object task, long seen) {
        return !leaving.contains(task) || givingBack == 0 && seen == givenBack;
    }

    /**
     * {@code task} is about to send a give-back: first waits until no sibling is an idle fetcher, or until
     * {@code untilMs} (epoch ms; 0 when locks must be renewed now).
     */
    synchronized void beginGiveBack(Object task, long untilMs) throws InterruptedException {
        if (leaving.contains(task)) {
            fetching.remove(task);
            long waitMs = untilMs - System.currentTimeMillis();
            while (!fetching.isEmpty() && waitMs > 0) {
                wait(waitMs);
                waitMs = untilMs - System.currentTimeMillis();
            }
        }
        givingBack++;
    }

    /** The give-back begun is committed (or failed): idle fetchers must poll once more before they close. */
    synchronized void endGiveBack() {
        givingBack--;
        givenBack++;
        notifyAll();
    }
}
