package dev.kafkafetch.processor;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.kafkafetch.window.PartitionWindow;

/**
 * Runs the records of one fetch task through the route on worker threads.
 * <p>
 * Guarantees: at most {@code maxConcurrency} records are running at once; records of one ordering lane (a partition
 * for {@link Ordering#PARTITION}, a key within a partition for {@link Ordering#KEY}) run one at a time in the order
 * they were submitted; a record that completes hands its worker thread straight to the next ready record, so a
 * synchronous route costs no thread hop per record. {@link #submit} never waits for the route: the fetch thread only
 * takes a short lock around queue operations. Finished records are passed to the {@code onDone} callback exactly once
 * (never for cancelled or abandoned ones).
 */
public final class Dispatcher {

    private final Ordering ordering;
    private final int maxConcurrency;
    private final Executor executor;
    private final ItemProcessor processor;
    private final Consumer<WorkItem> onDone;

    private final Object lock = new Object();
    private final ArrayDeque<WorkItem> ready = new ArrayDeque<>();
    private final Map<Object, ArrayDeque<WorkItem>> lanes = new HashMap<>();
    /** Running records: an intrusive doubly-linked list (O(1) add and remove, no hashing), and its size. */
    private WorkItem runHead;
    private int runningCount;
    private boolean held;
    /** Windows whose partition is about to be sought back: records submitted for them are stale, never run. */
    private final java.util.Set<PartitionWindow> blocked =
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private int queued;

    public Dispatcher(Ordering ordering, int maxConcurrency, Executor executor, ItemProcessor processor,
                      Consumer<WorkItem> onDone) {
        this.ordering = ordering;
        this.maxConcurrency = maxConcurrency;
        this.executor = executor;
        this.processor = processor;
        this.onDone = onDone;
    }

    /** Queues a record behind its lane and starts whatever may start now. Called by the fetch thread. */
    public void submit(WorkItem item) {
        submitAll(List.of(item));
    }

    /** Queues records (in order) behind their lanes under one lock, and starts whatever may start now. */
    public void submitAll(List<WorkItem> items) {
        List<WorkItem> toStart;
        synchronized (lock) {
            for (int i = 0, n = items.size(); i < n; i++) {
                enqueue(items.get(i));
            }
            toStart = takeStartable(null);
        }
        startAll(toStart);
    }

    private void enqueue(WorkItem item) {
        if (!blocked.isEmpty() && matches(item, blocked::contains)) {
            item.transition(WorkItem.QUEUED, WorkItem.CANCELLED);
            return;
        }
        queued++;
        Object laneKey = laneKey(item);
        if (laneKey == null) {
            ready.add(item);
        } else {
            ArrayDeque<WorkItem> lane = lanes.get(laneKey);
            if (lane == null) {
                // the lane is idle: its record is ready; the (empty) deque marks the lane busy
                lanes.put(laneKey, new ArrayDeque<>(4));
                item.lane = laneKey;
                ready.add(item);
            } else {
                item.lane = laneKey;
                lane.add(item);
            }
        }
    }

    /** Stops (true) or allows again (false) starting queued records; running ones are not affected. */
    public void hold(boolean hold) {
        List<WorkItem> toStart;
        synchronized (lock) {
            held = hold;
            toStart = hold ? List.of() : takeStartable(null);
        }
        startAll(toStart);
    }

    /**
     * Removes every queued (not yet started) record whose window matches, marking it CANCELLED; running records are
     * left alone. Returns how many were cancelled.
     */
    public int cancel(Predicate<PartitionWindow> windows) {
        List<WorkItem> toStart;
        int cancelled;
        synchronized (lock) {
            int before = queued;
            // records waiting behind a lane's head
            for (ArrayDeque<WorkItem> lane : lanes.values()) {
                lane.removeIf(item -> {
                    if (matches(item, windows)) {
                        cancelOne(item);
                        return true;
                    }
                    return false;
                });
            }
            // ready records; a cancelled lane head hands its lane to the next (non-matching) record
            List<WorkItem> heads = new ArrayList<>();
            for (WorkItem item : ready) {
                if (matches(item, windows)) {
                    heads.add(item);
                }
            }
            for (WorkItem item : heads) {
                ready.remove(item);
                cancelOne(item);
                releaseLane(item);
            }
            cancelled = before - queued;
            toStart = takeStartable(null);
        }
        startAll(toStart);
        return cancelled;
    }

    /**
     * Cancels the queued records of these windows and refuses any submitted later, until {@link #unblock}: their
     * partition is being sought back, so whatever was polled for them is stale.
     */
    public void block(java.util.Collection<PartitionWindow> windows) {
        synchronized (lock) {
            blocked.addAll(windows);
        }
        cancel(windows::contains);
    }

    /** Forgets a blocked window (it was retired). */
    public void unblock(PartitionWindow window) {
        synchronized (lock) {
            blocked.remove(window);
        }
    }

    /** A record matches by its window; a batch only when every one of its records matches. */
    private static boolean matches(WorkItem item, Predicate<PartitionWindow> windows) {
        if (item.batch == null) {
            return windows.test(item.window);
        }
        for (WorkItem r : item.batch) {
            if (!windows.test(r.window)) {
                return false;
            }
        }
        return true;
    }

    private void cancelOne(WorkItem item) {
        item.transition(WorkItem.QUEUED, WorkItem.CANCELLED);
        queued--;
    }

    /**
     * Gives up on a running record (it stalled): its lane and concurrency slot are released so that the partition
     * moves on; its eventual completion will be ignored. Returns false when it is no longer running.
     */
    public boolean abandon(WorkItem item) {
        List<WorkItem> toStart;
        synchronized (lock) {
            if (!item.transition(WorkItem.RUNNING, WorkItem.ABANDONED)) {
                return false;
            }
            unlinkRunning(item);
            releaseLane(item);
            toStart = takeStartable(null);
        }
        startAll(toStart);
        return true;
    }

    /** Running records, copied. */
    public List<WorkItem> running() {
        synchronized (lock) {
            List<WorkItem> copy = new ArrayList<>(runningCount);
            for (WorkItem w = runHead; w != null; w = w.runNext) {
                copy.add(w);
            }
            return copy;
        }
    }

    public int runningCount() {
        synchronized (lock) {
            return runningCount;
        }
    }

    private void linkRunning(WorkItem item) {
        item.runPrev = null;
        item.runNext = runHead;
        if (runHead != null) {
            runHead.runPrev = item;
        }
        runHead = item;
        item.inRunning = true;
        runningCount++;
    }

    private void unlinkRunning(WorkItem item) {
        if (!item.inRunning) {
            return;
        }
        if (item.runPrev != null) {
            item.runPrev.runNext = item.runNext;
        } else {
            runHead = item.runNext;
        }
        if (item.runNext != null) {
            item.runNext.runPrev = item.runPrev;
        }
        item.runPrev = null;
        item.runNext = null;
        item.inRunning = false;
        runningCount--;
    }

    /** What the dispatcher holds, read under one lock and without copying, for the task's snapshot. */
    public record Load(int running, int queued, long oldestRunningPolledAtNanos) {
    }

    /** Running and queued counts, and when the oldest running record was polled (0 when none runs). */
    public Load load() {
        synchronized (lock) {
            long oldest = 0;
            for (WorkItem w = runHead; w != null; w = w.runNext) {
                if (oldest == 0 || w.polledAtNanos < oldest) {
                    oldest = w.polledAtNanos;
                }
            }
            return new Load(runningCount, queued, oldest);
        }
    }

    public int queuedCount() {
        synchronized (lock) {
            return queued;
        }
    }

    /** Running records whose window matches. */
    public int runningCount(Predicate<PartitionWindow> windows) {
        synchronized (lock) {
            int n = 0;
            for (WorkItem item = runHead; item != null; item = item.runNext) {
                if (windows.test(item.window)) {
                    n++;
                }
            }
            return n;
        }
    }

    private static final Object BATCH_LANE = new Object();

    private Object laneKey(WorkItem item) {
        if (item.batch != null) {
            // batches follow each other unless the user asked for no order at all
            return ordering == Ordering.UNORDERED ? null : BATCH_LANE;
        }
        switch (ordering) {
            case PARTITION:
                return item.window;
            case KEY:
                return item.rawKey == null ? null : new KeyLane(item.window, ByteBuffer.wrap(item.rawKey));
            default:
                return null;
        }
    }

    /** Under lock: moves ready records to running while slots are free; the first may be kept by the caller. */
    private List<WorkItem> takeStartable(List<WorkItem> into) {
        List<WorkItem> out = into;
        while (!held && runningCount < maxConcurrency && !ready.isEmpty()) {
            WorkItem item = ready.poll();
            queued--;
            if (!item.transition(WorkItem.QUEUED, WorkItem.RUNNING)) {
                continue;
            }
            linkRunning(item);
            if (out == null) {
                out = new ArrayList<>(4);
            }
            out.add(item);
        }
        return out == null ? List.of() : out;
    }

    /** Under lock: the item's lane passes to its next record, or becomes idle. */
    private void releaseLane(WorkItem item) {
        if (item.lane == null) {
            return;
        }
        ArrayDeque<WorkItem> lane = lanes.get(item.lane);
        if (lane == null) {
            return;
        }
        WorkItem next = lane.poll();
        if (next == null) {
            lanes.remove(item.lane);
        } else {
            ready.add(next);
        }
    }

    private void startAll(List<WorkItem> items) {
        for (WorkItem item : items) {
            executor.execute(() -> runFrom(item));
        }
    }

    /**
     * Runs the item and, while the route completes on this thread, the next ready ones on the same thread. Camel may
     * report a completion as asynchronous even when it happened on the calling thread (its reactive executor does):
     * such a completion is treated as synchronous, so a plain route costs no thread hop per record.
     */
    private void runFrom(WorkItem first) {
        Thread self = Thread.currentThread();
        WorkItem item = first;
        while (item != null) {
            final WorkItem current = item;
            current.doneHere = false;
            current.worker = self;
            current.startedAtNanos = System.nanoTime();
            boolean sync;
            try {
                sync = processor.process(current, doneSync -> {
                    if (doneSync) {
                        return;
                    }
                    if (Thread.currentThread() == self && !current.doneHere) {
                        current.doneHere = true; // still inside process() on this thread: the loop carries on
                        return;
                    }
                    WorkItem next = complete(current);
                    if (next != null) {
                        executor.execute(() -> runFrom(next));
                    }
                });
            } catch (Throwable t) {
                // the processor contract is to report failures through the item; never lose the slot
                current.fail("failed", t instanceof Exception ? (Exception) t : new RuntimeException(t));
                sync = true;
            }
            item = sync || current.doneHere ? complete(current) : null;
        }
    }

    /** Marks the item done, releases its lane and slot, and returns the next record this thread should run. */
    private WorkItem complete(WorkItem item) {
        boolean done = item.transition(WorkItem.RUNNING, WorkItem.DONE);
        item.worker = null;
        if (done) {
            onDone.accept(item);
        }
        WorkItem mine = null;
        List<WorkItem> others = null;
        synchronized (lock) {
            if (done) {
                unlinkRunning(item);
                releaseLane(item);
            }
            // this thread keeps the first startable record; any others go to the pool
            while (!held && runningCount < maxConcurrency && !ready.isEmpty()) {
                WorkItem next = ready.poll();
                queued--;
                if (!next.transition(WorkItem.QUEUED, WorkItem.RUNNING)) {
                    continue;
                }
                linkRunning(next);
                if (mine == null) {
                    mine = next;
                } else {
                    if (others == null) {
                        others = new ArrayList<>(4);
                    }
                    others.add(next);
                }
            }
        }
        if (others != null) {
            startAll(others);
        }
        return mine;
    }

    /** Lane of one key within one partition; keys compare by their bytes. */
    private record KeyLane(PartitionWindow window, ByteBuffer key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof KeyLane other && other.window == window && other.key.equals(key);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(window) * 31 + key.hashCode();
        }
    }
}
