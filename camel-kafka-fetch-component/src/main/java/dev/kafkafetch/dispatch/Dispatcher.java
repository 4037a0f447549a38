package dev.kafkafetch.dispatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.kafka.common.TopicPartition;

/**
 * Runs the records of one fetch task through the route on worker threads.
 * <p>
 * Guarantees: at most {@code maxConcurrency} records run at once (with {@link SharedSlots}, at most their size
 * together with the dispatchers sharing them); records of one ordering lane (a partition for
 * {@link Ordering#PARTITION}, a key within a partition for {@link Ordering#KEY}, every batch when batches run in order)
 * run one at a time in the order they were submitted ({@link Lanes}: keyed by topic-partition and key, never by the
 * partition's state, so a record still running from before a seek back or a re-assignment keeps blocking its lane,
 * docs/design.md §4.6). A record whose partition is retired or waits for a seek back is never started: it is dropped
 * and handed to the next {@link #cancel} call. A record that completes hands its worker thread straight to the next
 * ready one, so a synchronous route costs no thread hop per record. {@link #submitAll} never waits for the route.
 * Finished records go to {@code onDone} exactly once (never cancelled or abandoned ones).
 */
public final class Dispatcher {

    private final Lanes lanes;
    private final int maxConcurrency;
    private final int maxAbandoned;
    private final Executor executor;
    private final ItemProcessor processor;
    private final Consumer<WorkItem> onDone;
    /** Null: this dispatcher's own maxConcurrency is its only bound. */
    private final SharedSlots slots;

    private final Object lock = new Object();
    private final ArrayDeque<WorkItem> ready = new ArrayDeque<>();
    /** Blocked records taken off the ready queue, waiting for the fetch thread's next cancel(). */
    private final List<WorkItem> dropped = new ArrayList<>();
    private final RunningRecords running = new RunningRecords();
    private int queued;
    /** Abandoned (stalled) records whose thread has not come back yet. */
    private int abandonedRunning;
    private boolean held;
    private final HeldPartitions heldPartitions = new HeldPartitions();

    /**
     * @param batchesInOrder batches run one after another (else, with UNORDERED, up to maxConcurrency at once)
     * @param maxAbandoned   how many abandoned records may still hold their thread before no more are abandoned
     */
    public Dispatcher(Ordering ordering, boolean batchesInOrder, int maxConcurrency, int maxAbandoned,
                      Executor executor, ItemProcessor processor, Consumer<WorkItem> onDone) {
        this(ordering, batchesInOrder, maxConcurrency, maxAbandoned, executor, processor, onDone, null);
    }

    /**
     * @param slots shared with other dispatchers (together they run at most its size at once), or null
     */
    public Dispatcher(Ordering ordering, boolean batchesInOrder, int maxConcurrency, int maxAbandoned,
                      Executor executor, ItemProcessor processor, Consumer<WorkItem> onDone, SharedSlots slots) {
        this.slots = slots;
        if (slots != null) {
            slots.join(this);
        }
        this.lanes = new Lanes(ordering, batchesInOrder);
        this.maxConcurrency = maxConcurrency;
        this.maxAbandoned = maxAbandoned;
        this.executor = executor;
        this.processor = processor;
        this.onDone = onDone;
    }

    /** Queues records (in order) behind their lanes under one lock, and starts whatever may start now. */
    public void submitAll(List<WorkItem> items) {
        for (int i = 0, n = items.size(); i < n; i++) {
            WorkItem item = items.get(i);
            item.lane = lanes.keyOf(item); // hashed before the lock: workers wait for it to finish records
        }
        List<WorkItem> toStart;
        synchronized (lock) {
            for (int i = 0, n = items.size(); i < n; i++) {
                enqueue(items.get(i));
            }
            toStart = takeStartable();
        }
        startAll(toStart);
    }

    private void enqueue(WorkItem item) {
        queued++;
        if (lanes.admit(item)) {
            ready.add(item);
        }
    }

    /** Stops (true) or allows again (false) starting queued records; running ones are not affected. */
    public void hold(boolean hold) {
        List<WorkItem> toStart;
        synchronized (lock) {
            held = hold;
            toStart = hold ? List.of() : takeStartable();
        }
        startAll(toStart);
    }

    /**
     * Stops (true) or allows again (false) starting queued records of one partition (an operator's pause; see
     * {@link HeldPartitions}); running ones are not affected, other partitions go on.
     */
    public void holdPartition(TopicPartition partition, boolean hold) {
        List<WorkItem> toStart;
        synchronized (lock) {
            if (hold) {
                heldPartitions.hold(partition);
                toStart = List.of();
            } else {
                heldPartitions.release(partition, ready);
                toStart = takeStartable();
            }
        }
        startAll(toStart);
    }

    /**
     * Takes one queued record out (an operator parks it), marking it CANCELLED; its lane passes to the next record.
     * False when it is not queued any more.
     */
    public boolean cancelQueued(WorkItem item) {
        List<WorkItem> toStart;
        synchronized (lock) {
            boolean inLane = lanes.removeWaiting(item);
            boolean wasReady = !inLane && (ready.removeIf(i -> i == item) || heldPartitions.remove(item));
            if (!(inLane || wasReady) || !item.transition(WorkItem.QUEUED, WorkItem.CANCELLED)) {
                return false;
            }
            queued--;
            if (wasReady) {
                releaseLane(item);
            }
            toStart = takeStartable();
        }
        startAll(toStart);
        return true;
    }

    /**
     * For each item, its place in its ordering lane (the records waiting behind it, and the lane's head when it waits
     * behind one), read under one lock for the task's snapshot.
     */
    public LanePlace[] lanePlaces(List<WorkItem> items) {
        LanePlace[] places = new LanePlace[items.size()];
        synchronized (lock) {
            for (int i = 0; i < places.length; i++) {
                WorkItem item = items.get(i);
                places[i] = new LanePlace(lanes.waitingBehind(item), lanes.headAhead(item));
            }
        }
        return places;
    }

    /** Starts what may start now: another dispatcher freed one of the {@link SharedSlots}. */
    void startReady() {
        List<WorkItem> toStart;
        synchronized (lock) {
            toStart = takeStartable();
        }
        startAll(toStart);
    }

    /** True when records were dropped (blocked) since the last {@link #cancel}: the fetch thread must seek them back. */
    public boolean hasDropped() {
        synchronized (lock) {
            return !dropped.isEmpty();
        }
    }

    /**
     * Removes every queued (not yet started) record that matches, marking it CANCELLED, and returns them together with
     * the records dropped since the last call because they were blocked. Running records are left alone.
     */
    public List<WorkItem> cancel(Predicate<WorkItem> which) {
        List<WorkItem> cancelled = new ArrayList<>();
        List<WorkItem> toStart;
        synchronized (lock) {
            cancelled.addAll(dropped);
            dropped.clear();
            lanes.removeWaitingIf(which, item -> cancelOne(item, cancelled));
            List<WorkItem> aside = new ArrayList<>();
            heldPartitions.removeIf(which, aside);
            for (WorkItem item : aside) {
                cancelOne(item, cancelled);
                releaseLane(item); // its lane's next record becomes ready, and is put aside again or cancelled below
            }
            // a cancelled ready record that heads its lane hands the lane to the next one, which may match as well
            boolean again = true;
            while (again) {
                again = false;
                for (Iterator<WorkItem> it = ready.iterator(); it.hasNext();) {
                    WorkItem item = it.next();
                    if (which.test(item)) {
                        it.remove();
                        cancelOne(item, cancelled);
                        again |= releaseLane(item);
                    }
                }
            }
            toStart = takeStartable();
        }
        startAll(toStart);
        return cancelled;
    }

    private void cancelOne(WorkItem item, List<WorkItem> into) {
        item.transition(WorkItem.QUEUED, WorkItem.CANCELLED);
        queued--;
        into.add(item);
    }

    /**
     * Gives up on a running record (it stalled): its lane and slot are released so its partition moves on; its late
     * completion is ignored. Returns false when it is no longer running, or when {@code maxAbandoned} abandoned
     * records still hold their threads (it then keeps its slot).
     */
    public boolean abandon(WorkItem item) {
        List<WorkItem> toStart;
        synchronized (lock) {
            if (abandonedRunning >= maxAbandoned || !item.transition(WorkItem.RUNNING, WorkItem.ABANDONED)) {
                return false;
            }
            abandonedRunning++;
            running.remove(item);
            releaseLane(item);
            giveSlot();
            toStart = takeStartable();
        }
        startAll(toStart);
        offerSlots();
        return true;
    }

    /** Running records, copied. */
    public List<WorkItem> running() {
        synchronized (lock) {
            return running.copy();
        }
    }

    /** Running records that took their slot at or before {@code cutOffNanos}, oldest first; reads only those. */
    public List<WorkItem> runningSince(long cutOffNanos) {
        synchronized (lock) {
            return running.since(cutOffNanos);
        }
    }

    /** Running records that match. */
    public int runningCount(Predicate<WorkItem> which) {
        synchronized (lock) {
            return running.count(which);
        }
    }

    /** What the dispatcher holds, read under one lock and without copying, for the task's snapshot. */
    public record Load(int running, int queued, int abandonedRunning, long oldestStartedAtNanos) {
    }

    public Load load() {
        synchronized (lock) {
            return new Load(running.size(), queued, abandonedRunning, running.oldestStartedAtNanos());
        }
    }

    /** Under lock: moves ready records to running while slots are free. */
    private List<WorkItem> takeStartable() {
        List<WorkItem> out = null;
        WorkItem item;
        while ((item = nextStartable()) != null) {
            if (out == null) {
                out = new ArrayList<>(4);
            }
            out.add(item);
        }
        return out == null ? List.of() : out;
    }

    /** Under lock: the next ready record that may start now, made RUNNING; blocked ones are dropped on the way. */
    private WorkItem nextStartable() {
        while (!held && running.size() < maxConcurrency && !ready.isEmpty()) {
            boolean blocked = ready.peek().isBlocked();
            if (!blocked && heldPartitions.holds(ready.peek())) {
                heldPartitions.putAside(ready.poll()); // its partition is paused by an operator: it keeps its lane
                continue;
            }
            if (!blocked && slots != null && !slots.tryTake()) {
                return null; // the other dispatchers use every shared slot: the next one freed is offered here
            }
            WorkItem item = ready.poll();
            queued--;
            if (blocked) {
                item.transition(WorkItem.QUEUED, WorkItem.CANCELLED);
                for (WorkItem r : item.records()) {
                    r.partitionState().markDropPending(); // its other partitions wait for the seek back too
                }
                dropped.add(item);
                releaseLane(item);
                continue;
            }
            if (item.transition(WorkItem.QUEUED, WorkItem.RUNNING)) {
                running.add(item);
                return item;
            }
            giveSlot();
        }
        return null;
    }

    /** Under lock: the item's lane passes to its next record, or becomes idle. True when a record became ready. */
    private boolean releaseLane(WorkItem item) {
        WorkItem next = lanes.release(item);
        if (next == null) {
            return false;
        }
        ready.add(next);
        return true;
    }

    private void startAll(List<WorkItem> items) {
        for (int i = 0, n = items.size(); i < n; i++) {
            WorkItem item = items.get(i);
            executor.execute(() -> runFrom(item));
        }
    }

    /**
     * Runs the item and, while the route completes on this thread, the next ready ones on the same thread. Camel may
     * report a completion as asynchronous even when it happened on the calling thread (its reactive executor does):
     * such a completion, while process() is still running, is treated as synchronous, so a plain route costs no
     * thread hop per record. A completion that comes later on this thread (another record's route completing it, as
     * a processor that completes a batch of exchanges does) finishes the record like one from any other thread.
     */
    private void runFrom(WorkItem first) {
        Thread self = Thread.currentThread();
        WorkItem item = first;
        while (item != null) {
            final WorkItem current = item;
            current.doneHere = false;
            current.inProcess = true;
            current.worker = self;
            current.startedAtNanos = System.nanoTime();
            boolean sync;
            try {
                sync = processor.process(current, doneSync -> {
                    if (doneSync) {
                        return;
                    }
                    if (Thread.currentThread() == self && current.inProcess) {
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
            current.inProcess = false; // a completion on this thread from now on is a late one
            if (!sync && !current.doneHere) {
                current.leftForAsyncStep(); // this thread is no longer the record's (console, stall reports)
            }
            item = sync || current.doneHere ? complete(current) : null;
        }
    }

    /** Marks the item done, releases its lane and slot, and returns the next record this thread should run. */
    private WorkItem complete(WorkItem item) {
        boolean done = item.transition(WorkItem.RUNNING, WorkItem.DONE);
        item.worker = null;
        if (done) {
            try {
                onDone.accept(item);
            } catch (RuntimeException e) {
                // onDone routes failures itself; an error here must not cost the slot or the thread
            }
        }
        WorkItem mine;
        List<WorkItem> others;
        synchronized (lock) {
            if (done) {
                running.remove(item);
                releaseLane(item);
                giveSlot();
            } else {
                abandonedRunning--; // an abandoned record's thread came back
            }
            // this thread keeps the first startable record; any others go to the pool
            mine = nextStartable();
            others = mine == null ? List.of() : takeStartable();
        }
        startAll(others);
        offerSlots();
        return mine;
    }

    /** Under lock: a record left its slot (finished, abandoned, or never started). */
    private void giveSlot() {
        if (slots != null) {
            slots.give();
        }
    }

    /** Holding no lock: the other dispatchers sharing the slots may start what waits for one. */
    private void offerSlots() {
        if (slots != null) {
            slots.offer(this);
        }
    }
}
