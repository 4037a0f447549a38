package dev.kafkafetch.metrics;

/**
 * One assigned partition of a fetch task at the time of a snapshot.
 *
 * @param position     offset of the next record the task will poll, or -1 when nothing was polled yet
 * @param committed    the last committed offset known to the task: the group's when the partition was assigned,
 *                     then the task's own commits; -1 when the group had none
 * @param committable  the first unfinished offset (what the next commit would write), or -1
 * @param endOffset    the log end offset as last seen by the client, or -1 when unknown
 * @param lag          records between position and the end, from the client's own fetch metadata, or -1 when unknown
 * @param inFlight     records polled and not finished
 * @param held         records held since the committable offset, finished or not
 * @param pausedReason null when not paused, else "user", "listener", "back-pressure", "operator" (an operator paused
 *                     this partition), "retry-delay" or "window-share" (it holds more than its share of the window)
 * @param delayedUntil when its next record, a retry letter, is due (epoch ms); 0 when it does not wait for one
 * @param oldestUnfinished the record the partition's commit waits for, null when every polled record is finished
 */
public record PartitionSnapshot(
        String topic,
        int partition,
        long position,
        long committed,
        long committable,
        long endOffset,
        long lag,
        int inFlight,
        int held,
        String pausedReason,
        long delayedUntil,
        OldestUnfinished oldestUnfinished) {

    public PartitionSnapshot(String topic, int partition, long position, long committed, long committable,
                             long endOffset, long lag, int inFlight, int held, String pausedReason, long delayedUntil) {
        this(topic, partition, position, committed, committable, endOffset, lag, inFlight, held, pausedReason,
             delayedUntil, null);
    }

    public boolean paused() {
        return pausedReason != null;
    }
}
