package dev.kafkafetch.task;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;

/**
 * The fetch loop's way back from the route: finished records into their windows, seek-back requests put aside and
 * carried out after the poll, manual and interval commits — through the consumer, or through the task's transactions
 * when it is transacted. Fetch thread only.
 * <p>
 * Guarantees: a record counts finished once, in its own window, before any commit can cover it (docs/design.md §4.2);
 * a seek back is never done inside a rebalance callback, only by the loop after its poll; every commit of the task
 * goes through one {@link CommitManager.Committer}, so with transactions no commit bypasses them.
 */
final class Settlement {

    private final CompletionQueue completions;
    private final PartitionStates partitions;
    private final Dispatcher dispatcher;
    private final CommitManager commits;
    /** Null unless allowManualCommit. */
    private final ManualCommitQueue manualCommits;
    private final TaskMetrics metrics;
    private final boolean autoCommit;
    private final Supplier<TaskConsumer> consumer;
    private final Runnable requestStop;
    private final List<WorkItem> breaks = new ArrayList<>();
    /** Null unless transacted. */
    private TransactedCommits transactions;

    Settlement(CompletionQueue completions, PartitionStates partitions, Dispatcher dispatcher, CommitManager commits,
               ManualCommitQueue manualCommits, TaskMetrics metrics, boolean autoCommit,
               Supplier<TaskConsumer> consumer, Runnable requestStop) {
        this.completions = completions;
        this.partitions = partitions;
        this.dispatcher = dispatcher;
        this.commits = commits;
        this.manualCommits = manualCommits;
        this.metrics = metrics;
        this.autoCommit = autoCommit;
        this.consumer = consumer;
        this.requestStop = requestStop;
    }

    /** transacted: every commit goes through these transactions; set before the task runs. */
    void useTransactions(TransactedCommits transactions) {
        this.transactions = transactions;
    }

    /** finished records into their windows, seek-back requests put aside; then manual commits. */
    void settle() {
        WorkItem item;
        while ((item = completions.poll()) != null) {
            if (item.breakRequested()) {
                breaks.add(item); // sought back by the loop after the poll, never inside a rebalance callback
                continue;
            }
            if (item.failure() != null) {
                metrics.error("record " + item + " failed: " + item.failure());
            }
            if (item.isBatch()) {
                for (WorkItem r : item.batch()) {
                    finish(r, item.failure() != null, r.deadLettered(), r.retried());
                }
            } else {
                finish(item, item.failure() != null, item.deadLettered(), item.retried()); // no list per record
            }
        }
        metrics.markRate(System.currentTimeMillis());
        if (manualCommits != null) {
            manualCommits.commit(r -> finish(r, false, false, false), partitions::reopen, commits, consumer.get(),
                    partitions.all());
        }
    }

    private boolean finish(WorkItem record, boolean failed, boolean deadLettered, boolean retried) {
        boolean counted = partitions.finish(record);
        if (counted) {
            metrics.finished(failed, deadLettered, retried);
        }
        if (transactions != null) {
            transactions.finished(record, counted, failed);
        }
        return counted;
    }

    /**
     * breakOnFirstError and Pausable EIP failures seek their partitions back, and so do records the dispatcher dropped
     * because they shared a batch with such a partition.
     */
    void seekBack() {
        if (!breaks.isEmpty() || dispatcher.hasDropped()) {
            partitions.seekBack(breaks);
            breaks.clear();
        }
    }

    /** Seek-back requests not carried out: the consumer closes, and its partitions are read again by their owner. */
    void dropBreaks() {
        breaks.clear();
    }

    /** the interval commit. */
    void commitIfDue(long nowMs) {
        if (autoCommit) {
            commits.commitIfDue(committer(), partitions.all(), nowMs);
        }
    }

    /** What the partitions finished, committed before the consumer closes. */
    void commitFinished() {
        if (autoCommit) {
            commits.commitFinished(committer(), partitions.all());
        }
    }

    /** transacted: the partitions of aborted transactions are read again; true when the consumer must be re-created. */
    boolean restartAborted() {
        TransactedCommits.Next next = transactions != null ? transactions.restartAborted(metrics)
                : TransactedCommits.Next.GO_ON;
        if (next == TransactedCommits.Next.STOP) {
            requestStop.run();
        }
        return next == TransactedCommits.Next.RECONNECT;
    }

    /** What commits go through: the consumer, or the task's transactions. */
    CommitManager.Committer committer() {
        return transactions != null ? transactions.committer() : consumer.get();
    }
}
