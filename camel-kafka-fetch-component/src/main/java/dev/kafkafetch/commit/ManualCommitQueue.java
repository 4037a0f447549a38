package dev.kafkafetch.commit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Manual commits, asked from any thread and carried out by the fetch thread that owns the records' consumer.
 * <p>
 * Guarantees: a request marks its record finished and asks for its offset + 1; the commit never passes an earlier
 * unfinished record of the partition. The request completes once the commit made for it was acknowledged: up to its
 * record, or, while an earlier record of the partition is unfinished, up to that one (the rest stays asked for and is
 * committed as soon as the earlier records finish), so a worker thread waiting in a synchronous commit never waits for
 * another record, which might need its thread. It completes exceptionally when the commit failed, the partition is no
 * longer assigned to this consumer, or the consumer closed. When
 * the commit fails, a record the request finished is unfinished again, so the failed exchange is handled like any
 * other failure (delivered again, dead-lettered) and never committed past meanwhile. Every request completes exactly
 * once. A request made while its fetch task stops is carried out by the stop as long as it waits for late commits
 * ({@link #awaitLate}); one made after is refused.
 */
public final class ManualCommitQueue {

    private static final Logger LOG = LoggerFactory.getLogger(ManualCommitQueue.class);

    private static final class Request {
        final WorkItem item;
        final CompletableFuture<Long> result;
        /** True when this request, not the route's completion, finished the record. */
        boolean finishedHere;

        Request(WorkItem item, CompletableFuture<Long> result) {
            this.item = item;
            this.result = result;
        }

        WorkItem item() {
            return item;
        }

        CompletableFuture<Long> result() {
            return result;
        }
    }

    private final ConcurrentLinkedQueue<Request> incoming = new ConcurrentLinkedQueue<>();
    /** Notified at each request, for a fetch thread that waits for late commits at its stop. */
    private final Object arrival = new Object();
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
                () -> request(List.of(item)));
    }

    /**
     * What a batch exchange's {@code CamelKafkaManualCommit} header commits through: every record of the batch, as one
     * request per record (so each partition of the batch is committed after its last record). It names the batch's last
     * record, whose header camel-kafka puts on the batch exchange; its future completes with that record's partition's
     * committed offset once every record's request completed, exceptionally when one of them failed.
     */
    public ManualCommitTarget targetForBatch(WorkItem batch) {
        List<WorkItem> records = batch.records();
        WorkItem last = records.get(records.size() - 1);
        return new ManualCommitTarget(last.topic(), last.partition(), last.offset(), commitTimeoutMs,
                () -> request(records));
    }

    private CompletableFuture<Long> request(List<WorkItem> items) {
        List<CompletableFuture<Long>> results = new ArrayList<>(items.size());
        for (WorkItem item : items) {
            CompletableFuture<Long> result = new CompletableFuture<>();
            results.add(result);
            incoming.offer(new Request(item, result));
        }
        synchronized (arrival) {
            arrival.notifyAll();
        }
        if (closed) {
            failIncoming("the fetch task has stopped"); // no fetch thread will look any more
        } else {
            wakeFetchThread.run();
        }
        CompletableFuture<Long> last = results.get(results.size() - 1);
        return results.size() == 1 ? last
                : CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).thenApply(done -> last.join());
    }

    /**
     * Fetch thread, stopping with manual commits only: records the route finished may still be committed by whoever
     * holds their commit header (an aggregator, another route), after their exchange completed. While {@code pending}
     * says some are not committed, waits for requests up to {@code timeoutMs} and lets {@code settle} carry them out.
     * An interrupt (a forced stop) ends the wait and is kept.
     */
    public void awaitLate(BooleanSupplier pending, Runnable settle, long timeoutMs) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        settle.run();
        try {
            long left;
            while (pending.getAsBoolean() && (left = deadline - System.currentTimeMillis()) > 0) {
                synchronized (arrival) {
                    if (incoming.isEmpty()) {
                        arrival.wait(left);
                    }
                }
                settle.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when requests arrived since the fetch thread last looked. */
    public boolean hasIncoming() {
        return !incoming.isEmpty();
    }

    /**
     * Fetch thread: takes the new requests, marks their records finished with {@code finish} (which answers false when
     * the record was finished already or its partition is no longer this consumer's) and commits what the partitions
     * allow; then completes every request (see the class's guarantee). A failed commit fails every request and
     * {@code reopen}s the records they finished.
     */
    public void commit(Predicate<WorkItem> finish, Predicate<WorkItem> reopen, CommitManager commits,
                       CommitManager.Committer committer, Collection<PartitionState> states) {
        List<Request> waiting = new ArrayList<>();
        Request request;
        while ((request = incoming.poll()) != null) {
            PartitionState state = request.item().partitionState();
            if (state.isRetired()) {
                notAssigned(request);
                continue;
            }
            request.finishedHere = finish.test(request.item()); // false when the route had finished it already
            state.requestManualCommit(request.item().offset() + 1);
            waiting.add(request);
        }
        if (waiting.isEmpty() && !anyPending(states)) {
            return;
        }
        try {
            commits.commitManual(committer, states);
        } catch (RuntimeException e) {
            for (Request r : waiting) {
                if (r.finishedHere && !reopen.test(r.item())) {
                    LOG.warn("{} could not be made unfinished after its manual commit failed ({}); a later commit may"
                             + " pass it",
                            r.item(), e.toString());
                }
                r.result().completeExceptionally(e);
            }
            return;
        }
        for (Request r : waiting) {
            PartitionState state = r.item().partitionState();
            if (state.isRetired()) {
                notAssigned(r);
            } else {
                r.result().complete(state.lastCommitted());
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
        failIncoming("the fetch task has stopped");
    }

    private void failIncoming(String why) {
        Request request;
        while ((request = incoming.poll()) != null) {
            request.result().completeExceptionally(new IllegalStateException(why + "; not committed"));
        }
    }
}
