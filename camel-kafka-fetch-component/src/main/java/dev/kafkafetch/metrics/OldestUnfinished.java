package dev.kafkafetch.metrics;

/**
 * What a partition is stuck on: its oldest unfinished record, the one its committed offset cannot pass, at the time of
 * the task's snapshot.
 *
 * @param offset        its offset
 * @param key           its key as text (at most {@value #MAX_KEY_LENGTH} characters), null when it has none
 * @param attempt       its delivery attempt (1 on the first delivery)
 * @param state         {@code queued} (waiting for a slot or its lane), {@code held} (its partition is paused by an
 *                      operator), {@code starting} (handed to a worker thread), {@code running}, {@code async} (in an asynchronous step of the route: no thread holds it), {@code batched} (in a batch), {@code completing} (done, being
 *                      marked finished), {@code dead-lettering} (its dead or retry letter is not acknowledged yet),
 *                      {@code stalled} (given up on, being dead-lettered) or {@code dropped} (waiting to be polled
 *                      again after a seek back); {@code unknown} when the task does not hold it any more
 * @param ageMs         how long since the task polled it
 * @param runningMs     how long it has been in the route, 0 when it is not running
 * @param thread        the worker thread running it, null when it is not running or in an asynchronous step
 * @param threadState   that thread's state ({@code RUNNABLE}, {@code WAITING}, {@code TIMED_WAITING},
 *                      {@code BLOCKED}), null when it is not running
 * @param waitingBehind with {@code ordering=KEY}: records of its key lane queued behind it; -1 with other orderings
 * @param waitsBehind   when it is queued behind the head of its ordering lane: that record (with {@code ordering=KEY}
 *                      or {@code PARTITION} only an execution still running from before a seek back or a rebalance can
 *                      be ahead of a partition's oldest unfinished record); null otherwise
 */
public record OldestUnfinished(
        long offset,
        String key,
        int attempt,
        String state,
        long ageMs,
        long runningMs,
        String thread,
        String threadState,
        int waitingBehind,
        LaneHead waitsBehind) {

    public static final int MAX_KEY_LENGTH = 200;

    /**
     * The record ahead of it in its lane.
     *
     * @param offset      its offset (the same offset when it is an earlier execution of the same record)
     * @param attempt     its delivery attempt
     * @param state       {@code running}, {@code starting}, {@code queued} or {@code held}
     * @param runningMs   how long it has been in the route, 0 when it is not running
     * @param thread      the worker thread running it, null when it is not running
     * @param threadState that thread's state, null when it is not running
     */
    public record LaneHead(long offset, int attempt, String state, long runningMs, String thread, String threadState) {
    }
}
