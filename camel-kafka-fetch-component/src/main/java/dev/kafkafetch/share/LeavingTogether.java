package dev.kafkafetch.share;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The share fetch tasks of one route that leave the share group together (a stop or a suspend asks all of them).
 * <p>
 * Why: a share consumer's client goes on fetching after its last poll until it has closed, and what that fetch
 * acquires the close gives back; on a record's last delivery the broker then archives it, unrouted. What one task
 * gives back while leaving (records it had not started, failed ones to retry) is just what a sibling's fetch acquires
 * next. Guarantees: the route's tasks whose clients are open join at once, before any of them is woken, and count as
 * clients that may acquire until they say they hold records ({@link #busy}) or have left; a task that holds nothing
 * and whose client may still acquire (an idle fetcher) closes only when no give-back of a sibling is under way and its
 * last poll, which brought nothing, began after the last one was committed; a task gives records back (sends their
 * RELEASE) only once no sibling's client may acquire, unless their locks must be renewed now, so the idle ones close
 * first and acquire nothing from their siblings. Not covered: another process's give-back, or a lock running out
 * elsewhere, in the last moment before a close (a client does not fetch while its task holds records:
 * {@link ShareClient}'s commit waits for the answers). A task that leaves on its own (a reconnect, a Pausable EIP
 * pause) waits for nobody.
 */
final class LeavingTogether {

    /** The route's tasks, each with whether its client is open. */
    private final Map<Object, BooleanSupplier> members = new LinkedHashMap<>();
    /** The tasks leaving together whose clients are open. */
    private final Set<Object> leaving = new HashSet<>();
    /** Those among them whose clients may acquire: idle fetchers, and tasks not yet known to hold records. */
    private final Set<Object> mayAcquire = new HashSet<>();
    private int givingBack;
    private long givenBack;

    /** {@code task} is one of the route's tasks; its client is open while {@code open} says so. */
    synchronized void member(Object task, BooleanSupplier open) {
        members.put(task, open);
    }

    /**
     * A stop or suspend asks the route's tasks to leave: every member whose client is {@code open} joins, all at once,
     * so no task begins a give-back before a sibling is known to the others (asked under the same lock as
     * {@link #left}, so a task whose client has just closed is never waited for). Asking again changes nothing.
     */
    synchronized void join() {
        members.forEach((task, open) -> {
            if (open.getAsBoolean() && leaving.add(task)) {
                mayAcquire.add(task);
            }
        });
    }

    /** {@code task} closed its client: {@code forget} drops it (under the lock), and nobody waits for it. */
    synchronized void left(Object task, Runnable forget) {
        forget.run();
        leaving.remove(task);
        mayAcquire.remove(task);
        notifyAll();
    }

    /**
     * {@code task} holds nothing and polls while its client may acquire; returns the give-backs committed so far,
     * which its poll begins after.
     */
    synchronized long fetching(Object task) {
        if (leaving.contains(task)) {
            mayAcquire.add(task);
        }
        return givenBack;
    }

    /** {@code task} holds records (or is about to give some back): its client fetches nothing. */
    synchronized void busy(Object task) {
        if (mayAcquire.remove(task)) {
            notifyAll();
        }
    }

    /** An idle fetcher's poll, begun after {@code seen} give-backs, brought nothing: whether it may close now. */
    synchronized boolean mayClose(Object task, long seen) {
        return !leaving.contains(task) || givingBack == 0 && seen == givenBack;
    }

    /**
     * {@code task} is about to send a give-back: first waits until no sibling's client may acquire, or until
     * {@code untilMs} (epoch ms; 0 when locks must be renewed now).
     */
    synchronized void beginGiveBack(Object task, long untilMs) throws InterruptedException {
        if (leaving.contains(task)) {
            mayAcquire.remove(task);
            long waitMs = untilMs - System.currentTimeMillis();
            while (!mayAcquire.isEmpty() && waitMs > 0) {
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
