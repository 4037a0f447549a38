package dev.kafkafetch.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.commit.OffsetStore;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.processor.BatchCollector;
import dev.kafkafetch.window.FinishedOffsets;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one owner of a fetch task's per-partition state, and its rebalance listener: a partition's
 * {@link PartitionState} is created when it is assigned and retired when it is revoked, lost or the consumer closes,
 * here and nowhere else.
 * <p>
 * Guarantees: on revoke, queued records of the revoked partitions are cancelled, running ones are waited for up to
 * {@code revokeTimeoutMs}, what finished is committed and the state retired, so nothing of it is committed later and
 * nothing unfinished ever is (docs/design.md §4.5). A batch that also holds records of kept partitions is dropped whole
 * and those partitions are sought back to it, so a batch is never partly committed. A seek back asked for by a failed
 * record is never done inside a rebalance callback but by the loop after its poll ({@link SeekBacks}).
 */
final class PartitionStates implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionStates.class);

    private final String taskName;
    private final TaskSettings settings;
    private final Dispatcher dispatcher;
    private final BatchCollector batches;
    private final CommitManager commits;
    private final TaskMetrics metrics;
    private final Runnable settle;
    private final Runnable publish;
    private final Map<TopicPartition, PartitionState> assigned = new HashMap<>();
    private final SeekBacks seekBacks;
    private TaskConsumer consumer;
    private CommitManager.Committer committer;
    private final StartOffsets starts;
    private final ConsumerPauses pauses;

    /**
     * @param batches            null unless batching
     * @param settle  drains completions and manual commits (run while waiting for running records)
     * @param publish publishes the task's snapshot (after each rebalance callback, so it shows the new assignment
     *                before any record of it runs)
     */
    PartitionStates(String taskName, TaskSettings settings, Dispatcher dispatcher, BatchCollector batches,
                    CommitManager commits, TaskMetrics metrics, Runnable settle, Runnable publish) {
        this.taskName = taskName;
        this.settings = settings;
        this.dispatcher = dispatcher;
        this.batches = batches;
        this.commits = commits;
        this.metrics = metrics;
        this.settle = settle;
        this.publish = publish;
        this.seekBacks = new SeekBacks(taskName, settings, dispatcher, metrics, this::stopStarting);
        this.starts = new StartOffsets(taskName, settings);
        this.pauses = new ConsumerPauses(taskName, assigned);
    }

    /** Which partitions the consumer has paused and why (the task, retry delays, an operator). */
    ConsumerPauses pauses() {
        return pauses;
    }

    /**
     * breakOnFirstError and Pausable EIP failures: seeks each failed record's partition back to it (see
     * {@link SeekBacks#seekBack}); never called inside a rebalance callback.
     */
    void seekBack(List<WorkItem> failed) {
        seekBacks.seekBack(failed);
    }

    /** Told of every seek back before it is made: the partition and the offset it is polled again from. */
    void onSeekBack(BiConsumer<PartitionState, Long> listener) {
        seekBacks.onSeekBack(listener);
    }

    /** Where newly assigned partitions start when it holds a position for them; set before the task runs. */
    void setOffsetStore(OffsetStore offsetStore) {
        starts.setOffsetStore(offsetStore);
    }

    /** The route's first assignment, which seekTo applies to, shared by the route's tasks; set before the task runs. */
    void setFirstAssignment(FirstAssignment firstAssignment) {
        starts.setFirstAssignment(firstAssignment);
    }

    /** The state of an assigned partition, or null when it is not assigned to this task. */
    PartitionState assignedState(TopicPartition tp) {
        return assigned.get(tp);
    }

    /**
     * A new consumer: it starts with nothing assigned and nothing paused.
     *
     * @param committer what revoke commits go through: the consumer, or the task's transactions
     */
    void attach(TaskConsumer consumer, CommitManager.Committer committer) {
        this.consumer = consumer;
        this.committer = committer;
        pauses.attach(consumer);
        seekBacks.attach(consumer);
    }

    Collection<PartitionState> all() {
        return assigned.values();
    }

    /** The state of an assigned partition (created if Kafka returned records before telling us of it). */
    PartitionState stateOf(TopicPartition tp) {
        PartitionState state = assigned.get(tp);
        return state != null ? state : assign(tp, -1, null);
    }

    /** Marks a record finished in its partition; false when it no longer belongs to an assigned partition. */
    boolean finish(WorkItem record) {
        return record.partitionState().finish(record.seq(), record.generation());
    }

    /** Unfinishes a record whose manual commit failed (see {@link PartitionState#reopen}). */
    boolean reopen(WorkItem record) {
        boolean reopened = record.partitionState().reopen(record.seq(), record.generation(), record.offset());
        if (reopened) {
            record.partitionState().attach(record.seq(), record.generation(), record);
        }
        return reopened;
    }

    int held() {
        int held = 0;
        for (PartitionState s : assigned.values()) {
            held += s.held();
        }
        return held;
    }

    int unfinished() {
        int unfinished = 0;
        for (PartitionState s : assigned.values()) {
            unfinished += s.unfinished();
        }
        return unfinished;
    }

    /** True when a partition holds records the route finished that were not committed yet. */
    boolean finishedNotCommitted() {
        for (PartitionState s : assigned.values()) {
            if (s.committable() > s.lastCommitted()) {
                return true;
            }
        }
        return false;
    }

    boolean needCommit() {
        for (PartitionState s : assigned.values()) {
            if (commits.needsCommit(s)) {
                return true;
            }
        }
        return false;
    }

    // ---- rebalance (called inside poll, on the fetch thread) ----

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        List<PartitionState> revoked = statesOf(partitions);
        if (revoked.isEmpty()) {
            return;
        }
        metrics.rebalanced();
        Set<PartitionState> set = new HashSet<>(revoked);
        Predicate<WorkItem> touched = i -> i.touches(set::contains);
        List<WorkItem> dropped = stopStarting(touched);
        holdKeptPartitionsOf(dropped, set);
        awaitRunning(revoked, settings.revokeTimeoutMs());
        if (settings.autoCommitEnable()) {
            commits.commitFinished(committer, revoked);
        }
        retire(revoked, touched, dropped);
        publish.run();
        LOG.info("Fetch task {} revoked {}", taskName, partitions);
    }

    /**
     * A dropped batch that also held records of kept partitions: nothing of those may start until {@link #retire}
     * seeks them back to it, or a batch polled after it would run first while the revoke waits.
     */
    private static void holdKeptPartitionsOf(List<WorkItem> dropped, Set<PartitionState> revoked) {
        for (WorkItem item : dropped) {
            for (WorkItem r : item.records()) {
                if (!revoked.contains(r.partitionState())) {
                    r.partitionState().markDropPending();
                }
            }
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        List<PartitionState> lost = statesOf(partitions);
        if (lost.isEmpty()) {
            return;
        }
        metrics.rebalanced();
        Set<PartitionState> set = new HashSet<>(lost);
        Predicate<WorkItem> touched = i -> i.touches(set::contains);
        retire(lost, touched, List.of());
        publish.run();
        LOG.warn("Fetch task {} lost {} without a chance to commit; unfinished records will be re-delivered", taskName,
                partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        // seeks where they start (seekTo, the offset store); counts the task's first rebalance, even when empty
        StartOffsets.Start start = starts.start(consumer, partitions);
        if (partitions.isEmpty()) {
            return;
        }
        metrics.rebalanced();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata c = start.committed().get(tp);
            PartitionState state = assign(tp, c != null ? c.offset() : -1,
                    c != null && settings.offsetMap() ? starts.finishedAbove(tp, c) : null);
            Long sought = start.sought().get(tp);
            if (sought != null) {
                state.startAt(sought);
            }
        }
        pauses.assigned(partitions);
        publish.run();
        LOG.info("Fetch task {} assigned {}", taskName, partitions);
    }

    private PartitionState assign(TopicPartition tp, long committed, FinishedOffsets finishedBefore) {
        PartitionState state = new PartitionState(tp, committed, finishedBefore);
        PartitionState old = assigned.put(tp, state);
        if (old != null) {
            retire(List.of(old), i -> i.touches(s -> s == old), List.of());
        }
        return state;
    }

    /**
     * An aborted transaction covered these partitions: each still assigned gets a fresh state from its committed offset
     * and offset map (read from the group, which the abort left as they were) and is sought back there, so every
     * record whose outputs the transaction held runs again and nothing past them is committed; records of the old
     * state still running finish into nothing.
     */
    void restartFromCommitted(Collection<TopicPartition> partitions) {
        List<PartitionState> states = statesOf(partitions);
        if (states.isEmpty()) {
            return;
        }
        Set<TopicPartition> tps = new HashSet<>();
        states.forEach(s -> tps.add(s.partition()));
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(tps,
                Duration.ofMillis(settings.commitTimeoutMs()));
        for (PartitionState old : states) {
            TopicPartition tp = old.partition();
            OffsetAndMetadata c = committed.get(tp);
            long start = c != null ? c.offset() : old.firstPolledOffset();
            assign(tp, c != null ? c.offset() : -1,
                    c != null && settings.offsetMap() ? starts.finishedAbove(tp, c) : null);
            if (start >= 0) {
                consumer.seek(tp, start);
            }
            metrics.redelivering();
            LOG.warn("Fetch task {}: {} is read again from offset {} after an aborted transaction", taskName, tp,
                    start);
        }
        publish.run();
    }

    /**
     * An operator's seek: the assigned partition gets a fresh state that starts at {@code offset} (committable at once,
     * so its next commit is that offset) and the consumer is sought there. The old state is retired as on a revoke:
     * its queued records are cancelled, a batch it shares with other partitions seeks those back, and records of it
     * still running keep their lane and finish into nothing. Returns the old state.
     */
    PartitionState restartAt(TopicPartition tp, long offset) {
        PartitionState old = assigned.get(tp);
        PartitionState fresh = assign(tp, -1, null);
        fresh.startAt(offset);
        consumer.seek(tp, offset);
        pauses.freshStart(tp, old);
        publish.run();
        return old;
    }

    /** The consumer closes: every state is retired (records still running are re-delivered to the next owner). */
    void retireAll() {
        List<PartitionState> all = new ArrayList<>(assigned.values());
        retire(all, i -> true, List.of());
        seekBacks.clear();
    }

    /**
     * Stops starting records that match: cancels them in the dispatcher and the batch collector. Returns them, and the
     * records dropped earlier, so that batches holding records of other partitions can be sought back.
     */
    List<WorkItem> stopStarting(Predicate<WorkItem> which) {
        List<WorkItem> stopped = new ArrayList<>(dispatcher.cancel(which));
        if (batches != null) {
            stopped.addAll(batches.remove(which));
        }
        return stopped;
    }

    /**
     * Retires states. A batch that also held records of kept partitions (dropped earlier, dropped now, or still
     * running after the wait) seeks those partitions back to it, so that no part of it is committed.
     */
    private void retire(List<PartitionState> states, Predicate<WorkItem> touched, List<WorkItem> dropped) {
        List<WorkItem> straddling = new ArrayList<>(dropped);
        straddling.addAll(stopStarting(touched));
        straddling.addAll(dispatcher.running().stream().filter(touched).toList());
        for (PartitionState s : states) {
            s.retire();
            assigned.remove(s.partition(), s);
            seekBacks.forget(s);
        }
        seekBacks.rewindTo(straddling);
    }

    /**
     * Drains completions until no record of these partitions runs and none of their dead letters is pending, or the
     * timeout passed.
     */
    void awaitRunning(Collection<PartitionState> states, long timeoutMs) {
        Set<PartitionState> set = new HashSet<>(states);
        Predicate<WorkItem> touched = i -> i.touches(set::contains);
        long start = System.currentTimeMillis();
        long deadline = start > Long.MAX_VALUE - timeoutMs ? Long.MAX_VALUE : start + timeoutMs;
        try {
            while (true) {
                // busy first, then drain: a record leaves "running" (and a dead letter "pending") only after its
                // completion was queued, so when neither is busy, this drain sees every completion
                boolean busy = dispatcher.runningCount(touched) > 0
                               || set.stream().anyMatch(s -> s.deadLettersPending() > 0);
                settle.run();
                long left = deadline - System.currentTimeMillis();
                if (!busy || left <= 0) {
                    if (busy) {
                        LOG.warn("Fetch task {}: records still running after {} ms; they are not committed and will be"
                                 + " re-delivered",
                                taskName, timeoutMs);
                    }
                    return;
                }
                Thread.sleep(Math.min(left, 2));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<PartitionState> statesOf(Collection<TopicPartition> partitions) {
        List<PartitionState> list = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            PartitionState s = assigned.get(tp);
            if (s != null) {
                list.add(s);
            }
        }
        return list;
    }

    /** One line per assigned partition, for the task's snapshot (see {@link PartitionSnapshots}). */
    List<PartitionSnapshot> snapshot(PartitionSnapshots snapshots, long nowMs) {
        return snapshots.of(assigned.values(), consumer, pauses, nowMs);
    }
}
