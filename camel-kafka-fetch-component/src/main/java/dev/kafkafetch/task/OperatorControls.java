package dev.kafkafetch.task;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.FailureRouter;
import dev.kafkafetch.error.ParkedException;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's actions on one fetch task, carried out by its fetch thread: requests arrive from any thread (a queue
 * for parks, the route's shared {@link PartitionPauses} for pauses) and {@link #apply} runs them at the loop's next
 * turn, so the KafkaConsumer is only ever touched by its own thread (docs/design.md §4.1).
 * <ul>
 * <li>A paused partition is paused in the consumer (nothing more is fetched) and in the dispatcher (its queued records
 * do not start; running ones finish); other partitions go on. A resume starts its queued records, no seek.</li>
 * <li>A parked record, queued or running, is taken out of the route (a running one is given up on like a stalled one:
 * its thread is not interrupted and its late result is ignored) and dead-lettered now with reason {@code parked}
 * through the task's dead-letter path; once the broker acknowledged the letter it counts finished, so the partition
 * (and its key lane, at once) moves on and commits past it (docs/design.md §6).</li>
 * <li>A sought partition restarts its window at the target ({@link PartitionSeeks}).</li>
 * </ul>
 * Each action is logged with who asked.
 */
final class OperatorControls {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorControls.class);

    /** A park request: the outcome is a message when done, null when the partition is not this task's. */
    private record Park(TopicPartition partition, long offset, String requestedBy,
            CompletableFuture<String> outcome) {
    }

    private final String taskName;
    private final PartitionStates partitions;
    private final Dispatcher dispatcher;
    private final FailureRouter failures;
    private final TaskMetrics metrics;
    private final Runnable wakeup;
    private final ConcurrentLinkedQueue<Park> parks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<PartitionSeeks.Seek> seeks = new ConcurrentLinkedQueue<>();
    private final PartitionSeeks seeker;
    private final Supplier<TaskConsumer> consumer;
    private volatile boolean closed;
    // fetch thread only
    private long appliedVersion = -1;
    private final Set<TopicPartition> applied = new HashSet<>();

    /** @param wakeup wakes the fetch thread (its consumer's poll) */
    OperatorControls(String taskName, PartitionStates partitions, Dispatcher dispatcher, FailureRouter failures,
                     TaskMetrics metrics, PartitionSeeks seeker, Supplier<TaskConsumer> consumer, Runnable wakeup) {
        this.wakeup = wakeup;
        this.seeker = seeker;
        this.consumer = consumer;
        this.taskName = taskName;
        this.partitions = partitions;
        this.dispatcher = dispatcher;
        this.failures = failures;
        this.metrics = metrics;
    }

    /** Any thread: asks for a park and wakes the fetch thread; refused at once when the task has ended. */
    CompletableFuture<String> requestPark(TopicPartition partition, long offset, String requestedBy) {
        Park park = new Park(partition, offset, requestedBy, new CompletableFuture<>());
        parks.add(park);
        if (closed) {
            close();
        }
        wakeup.run();
        return park.outcome();
    }

    /** Any thread: asks for a seek (see {@link PartitionSeeks}) and wakes the fetch thread. */
    CompletableFuture<String> requestSeek(PartitionSeeks.Seek seek) {
        seeks.add(seek);
        if (closed) {
            close();
        }
        wakeup.run();
        return seek.outcome();
    }

    /** Fetch thread, once per turn: brings the partitions in line with the pauses asked for, then seeks and parks. */
    void apply() {
        applyPauses();
        PartitionSeeks.Seek seek;
        while ((seek = seeks.poll()) != null) {
            try {
                seek.outcome().complete(seeker.seek(seek, consumer.get()));
            } catch (RuntimeException e) {
                seek.outcome().completeExceptionally(e);
            }
        }
        Park park;
        while ((park = parks.poll()) != null) {
            try {
                park.outcome().complete(park(park));
            } catch (RuntimeException e) {
                park.outcome().completeExceptionally(e);
            }
        }
    }

    /** Fetch thread: the task ends; parks still asked for are refused. */
    void close() {
        closed = true;
        Park park;
        while ((park = parks.poll()) != null) {
            park.outcome().completeExceptionally(new IllegalStateException(
                    "Fetch task " + taskName + " stopped before it could park " + park.partition() + "@"
                                                                           + park.offset()));
        }
        PartitionSeeks.Seek seek;
        while ((seek = seeks.poll()) != null) {
            seek.outcome().completeExceptionally(new IllegalStateException(
                    "Fetch task " + taskName + " stopped before it could seek " + seek.partition()));
        }
    }

    private void applyPauses() {
        PartitionPauses pauses = partitions.pauses().operatorPauses();
        long version = pauses.version();
        if (version == appliedVersion) {
            return;
        }
        Map<TopicPartition, String> wanted = pauses.partitions();
        for (TopicPartition tp : Set.copyOf(applied)) {
            if (!wanted.containsKey(tp)) {
                applied.remove(tp);
                dispatcher.holdPartition(tp, false);
                partitions.pauses().operatorPause(tp, false);
                if (partitions.assignedState(tp) != null) {
                    LOG.info("Fetch task {} resumed {} for an operator", taskName, tp);
                }
            }
        }
        wanted.forEach((tp, who) -> {
            if (applied.add(tp)) {
                dispatcher.holdPartition(tp, true);
                partitions.pauses().operatorPause(tp, true);
                if (partitions.assignedState(tp) != null) {
                    LOG.info("Fetch task {} paused {} for {}: nothing more of it is fetched or started; records in"
                             + " the route finish",
                            taskName, tp, who);
                }
            }
        });
        appliedVersion = version;
    }

    private String park(Park park) {
        PartitionState state = partitions.assignedState(park.partition());
        String where = park.partition() + "@" + park.offset();
        if (state == null) {
            // not ours now; an execution of it still running from before a revoke keeps a slot here: give up on it
            int given = giveUpEarlier(park.partition(), park.offset(), null);
            if (given == 0) {
                return null;
            }
            LOG.warn("Fetch task {} gave up on {} execution(s) of {} still running from before a rebalance, for {}"
                     + " (their threads are not interrupted)",
                    taskName, given, where, park.requestedBy());
            return "gave up on " + given + " execution(s) of " + where + " still running on fetch task " + taskName
                   + " from before a rebalance, freeing their slots";
        }
        WorkItem item = state.unfinishedRecordAt(park.offset()) instanceof WorkItem w ? w : null;
        if (item == null) {
            throw new IllegalArgumentException(
                    "Cannot park " + where + ": fetch task " + taskName + " holds no unfinished record at that offset"
                                               + " (finished, not polled yet, or being polled again; oldest unfinished: "
                                               + (state.firstUnfinishedOffset() < 0 ? "none"
                                                       : String.valueOf(state.firstUnfinishedOffset()))
                                               + ")");
        }
        String was;
        if (item.state() == WorkItem.QUEUED && dispatcher.cancelQueued(item)) {
            was = "waiting";
        } else if (item.state() == WorkItem.QUEUED) {
            // not in the dispatcher (a worker may have just started it: then it is RUNNING, not QUEUED)
            throw new IllegalStateException("Cannot park " + where + ": it waits in a batch (batching=true), and a"
                                            + " batch is handled as a whole");
        } else if (item.state() == WorkItem.RUNNING && dispatcher.abandon(item)) {
            Thread worker = item.worker();
            was = "running" + (worker != null ? " on " + worker.getName() : "");
        } else if (item.state() == WorkItem.RUNNING) {
            throw new IllegalStateException("Cannot park " + where + " now: maxConcurrency given-up records still"
                                            + " hold their threads; try again once one of them comes back");
        } else {
            throw new IllegalStateException("Cannot park " + where + ": it is finishing already ("
                                            + (item.failure() != null ? "being dead-lettered" : "completed") + ")");
        }
        // an execution of it from before a revoke (still running, keeping its lane) must not block its lane either
        if (giveUpEarlier(item.topicPartition(), item.offset(), item) > 0) {
            was += "; its earlier execution, still running from before a rebalance, is given up on too";
        }
        metrics.parked();
        LOG.warn("Fetch task {} parks {} (key {}, attempt {}, {}) for {}: dead-lettered now with reason parked; it"
                 + " counts finished once the letter is acknowledged",
                taskName, where, item.key(), item.attempt(), was, park.requestedBy());
        failures.park(item, new ParkedException(where, park.requestedBy(), was));
        return "parked " + where + " (" + was + ", attempt " + item.attempt() + ") on fetch task " + taskName
               + ": its dead letter is on its way; the partition commits past it once the broker acknowledged it";
    }

    /** Gives up on executions of that record still running besides {@code except}; how many. */
    private int giveUpEarlier(TopicPartition partition, long offset, WorkItem except) {
        int given = 0;
        for (WorkItem older : dispatcher.running()) {
            if (older != except && older.batch() == null && older.offset() == offset
                && older.topicPartition().equals(partition) && dispatcher.abandon(older)) {
                given++;
            }
        }
        return given;
    }
}
