package dev.kafkafetch.commit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;

/**
 * Manual commits, asked from any thread and carried out by the fetch thread that owns the records' consumer.
 * <p>
 * Guarantees: a request marks its record finished and asks for its offset + 1; the commit never passes an earlier
 * unfinished record of the partition, and the request completes once a commit covering it was acknowledged, or
 * exceptionally (the commit failed, the partition is no longer assigned to this consumer, the consumer closed). Every
 * request completes exactly once.
 */
public final class ManualCommitQueue {

    private record Request(WorkItem item, CompletableFuture<Long> result) {
    }

    private final ConcurrentLinkedQueue<Request> incoming = new ConcurrentLinkedQueue<>();
    /** Accepted requests whose commit is not acknowledged yet (fetch thread only). */
    private final List<Request> waiting = new ArrayList<>();
    private final long commitTimeoutMs;
    private final Runnable wakeFetchThread;
    private volatile boolean closed;

    public ManualCommitQueue(long commitTimeoutMs, Runnable wakeFetchThread) {
        this.commitTimeoutMs = commitTimeoutMs;
        this.wakeFetchThread = wakeFetchThread;
    }

    /** What the route's {@code CamelKafkaManualCommit} header commits through. */
    public ManualCommitTarget targetFor(WorkItem item) {
        return new ManualCommitTarget(item.topic(), item.partition(), item.offset(), commitTimeoutMs,
                () -> request(item));
    }

    private CompletableFuture<Long> request(WorkItem item) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        incoming.offer(new Request(item, result));
        if (closed) {
            failIncoming("the fetch task has stopped"); // no fetch thread will look any more
        } else {
            wakeFetchThread.run();
        }
        return result;
    }

    /** True when requests arrived since the fetch thread last looked. */
    public boolean hasIncoming() {
        return !incoming.isEmpty();
    }

    /**
     * Fetch thread: takes the new requests, marks their records finished with {@code finish} (which answers false when
     * the record's partition is no longer this consumer's) and commits what the partitions allow; then completes every
     * request a commit now covers.
     */
    public void commit(Predicate<WorkItem> finish, CommitManager commits, CommitManager.Committer committer,
                       Collection<PartitionState> states) {
        Request request;
        while ((request = incoming.poll()) != null) {
            PartitionState state = request.item().partitionState();
            if (state.isRetired()) {
                notAssigned(request);
                continue;
            }
            finish.test(request.item()); // false when the route had finished it already
            state.requestManualCommit(request.item().offset() + 1);
            waiting.add(request);
        }
        if (waiting.isEmpty() && !anyPending(states)) {
            return;
        }
        try {
            commits.commitManual(committer, states);
        } catch (RuntimeException e) {
            waiting.forEach(r -> r.result().completeExceptionally(e));
            waiting.clear();
            return;
        }
        for (Iterator<Request> it = waiting.iterator(); it.hasNext();) {
            Request r = it.next();
            PartitionState state = r.item().partitionState();
            if (state.isRetired()) {
                notAssigned(r);
                it.remove();
            } else if (state.lastCommitted() > r.item().offset()) {
                r.result().complete(state.lastCommitted());
                it.remove();
            }
        }
    }

    private static boolean anyPending(Collection<PartitionState> states) {
        for (PartitionState state : states) {
            if (state.manualCommittable() >= 0) {
                return true;
            }
        }
        return false;
    }

    private static void notAssigned(Request request) {
        request.result().completeExceptionally(new IllegalStateException(
                request.item() + " is no longer assigned to this consumer (rebalance); not committed"));
    }

    /** Fails every request not completed yet, now and later: the fetch task stopped. */
    public void close() {
        closed = true;
        waiting.forEach(r -> r.result().completeExceptionally(new IllegalStateException(
                "the fetch task has stopped; not committed")));
        waiting.clear();
        failIncoming("the fetch task has stopped");
    }

    private void failIncoming(String why) {
        Request request;
        while ((request = incoming.poll()) != null) {
            request.result().completeExceptionally(new IllegalStateException(why + "; not committed"));
        }
    }
}
