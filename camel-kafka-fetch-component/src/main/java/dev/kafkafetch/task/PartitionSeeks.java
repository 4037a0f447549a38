package dev.kafkafetch.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's seek of one partition, carried out by the fetch thread of the task that holds it.
 * <p>
 * Where the partition is now is its <em>resume point</em>: its first unfinished record, else its committable offset,
 * else its committed offset, else the consumer's position. A seek to or before it goes back: every record from the
 * target on is delivered again (finished ones too), nothing is skipped. A seek after it skips the offsets between the
 * two unprocessed, and is refused unless the operator confirmed it ({@code confirmSkip}); what it skips is counted and
 * logged.
 * <p>
 * Guarantees: the partition's window restarts at the target ({@link PartitionStates#restartAt}): the next commit of
 * the partition is the target, and nothing of the old window can be committed after the seek, neither past the target
 * nor over it (records of it still running finish into nothing; they keep their ordering lane until they return, so
 * two executions of a lane never overlap, docs/design.md §4.6). Back, nothing is committed past unfinished work: the target is
 * at or before the first unfinished record. Refused with {@code transacted} (a transaction may hold outputs of the old
 * window). Fetch thread only.
 */
final class PartitionSeeks {

    /** A seek asked for; {@code asked} says how (an offset, or a time and the offset it falls on). */
    record Seek(TopicPartition partition, long offset, String asked, boolean confirmSkip, String requestedBy,
            CompletableFuture<String> outcome) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(PartitionSeeks.class);

    private final String taskName;
    private final TaskSettings settings;
    private final PartitionStates partitions;
    private final TaskMetrics metrics;

    PartitionSeeks(String taskName, TaskSettings settings, PartitionStates partitions, TaskMetrics metrics) {
        this.taskName = taskName;
        this.settings = settings;
        this.partitions = partitions;
        this.metrics = metrics;
    }

    /**
     * Carries the seek out; returns what was done, or null when the partition is not assigned to this task.
     *
     * @throws OperatorActionRefusedException when it would skip records without confirmation, or with transacted
     */
    String seek(Seek seek, TaskConsumer consumer) {
        TopicPartition tp = seek.partition();
        PartitionState state = partitions.assignedState(tp);
        if (state == null) {
            return null;
        }
        if (settings.transacted()) {
            throw new OperatorActionRefusedException("Cannot seek " + tp + ": a seek is not supported with"
                                                     + " transacted=true (an open transaction may hold outputs of"
                                                     + " records it would drop)");
        }
        long target = seek.offset();
        long from = resumePoint(state, consumer);
        long skipped = target > from ? target - from - finishedBetween(state, from, target) : 0;
        String range = "offsets " + from + ".." + (target - 1) + " (up to " + skipped + " records not processed)";
        if (target > from && !seek.confirmSkip()) {
            throw new OperatorActionRefusedException("Seeking " + tp + " to " + seek.asked() + " skips " + range
                                                     + ": repeat with confirmSkip=true to skip them on purpose");
        }
        int dropped = state.unfinished();
        partitions.restartAt(tp, target);
        String what;
        if (target > from) {
            what = tp + " sought forward from " + from + " to " + target + " for " + seek.requestedBy() + ": skipped "
                   + range;
            LOG.warn("Fetch task {}: {}; {} unfinished record(s) of the old window dropped, the next commit is {}",
                    taskName, what, dropped, target);
        } else {
            what = tp + " sought back from " + from + " to " + target + " for " + seek.requestedBy()
                   + ": records from " + target + " on are delivered again";
            LOG.warn("Fetch task {}: {}; {} unfinished record(s) of the old window polled again, the next commit is {}",
                    taskName, what, dropped, target);
        }
        metrics.sought(skipped, what);
        return what + " (on fetch task " + taskName + ", " + seek.asked() + ")";
    }

    /** Where the partition would go on from without the seek. */
    private long resumePoint(PartitionState state, TaskConsumer consumer) {
        if (state.firstUnfinishedOffset() >= 0) {
            return state.firstUnfinishedOffset();
        }
        if (state.committable() >= 0) {
            return state.committable();
        }
        if (state.lastCommitted() >= 0) {
            return state.lastCommitted();
        }
        try {
            return consumer.position(state.partition(), Duration.ofMillis(settings.commitTimeoutMs()));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot seek " + state.partition() + " now: its position is unknown ("
                                            + e.getMessage() + "); try again once it has been polled",
                    e);
        }
    }

    /** Records finished already in [from, to): a forward seek does not skip those. */
    private static long finishedBetween(PartitionState state, long from, long to) {
        long[] count = { 0 };
        state.forEachFinishedHeld(o -> {
            if (o >= from && o < to) {
                count[0]++;
            }
        });
        return count[0];
    }
}
