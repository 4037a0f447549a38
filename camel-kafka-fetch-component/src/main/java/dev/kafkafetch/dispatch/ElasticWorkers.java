package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The platform-thread pool behind {@link WorkerPool}.
 * <p>
 * Guarantees: a task is never refused before shutdown, and the submitter never waits. Tasks are queued and taken by
 * the first thread that is free. When no thread is busy, the submitter wakes (or starts) one at once; when most recent
 * tasks took {@link #GRACE_NANOS} or longer (a blocking route), it wakes an idle one at once. Otherwise the task
 * waits for a busy thread to come free, so a steady stream of short tasks (an asynchronous route's starts, handed on
 * by the threads completing earlier records) wakes and starts no thread per task. A watcher looks every grace while
 * tasks come: for tasks nobody took within the grace, it keeps about one thread per core taking them, or as many young
 * threads (not held yet) as there are busy threads asleep in their task, and when every busy thread is held by its
 * task (asleep, waiting, or running for long) it at most doubles them. So a blocking route still gets a thread per
 * running record, the threads doubling about every {@link #HELD_NANOS} after a burst, and a thread held a moment by a
 * lock never starts hundreds. Threads idle for the keep-alive end.
 */
final class ElasticWorkers extends AbstractExecutorService {

    /** How long a queued task waits before the watcher gives it a thread when no busy one takes it. */
    static final long GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * Empty looks before the watcher parks until the next task; it waits twice as long before each (1.5 ms in all),
     * so a steady stream of tasks keeps it looking while a trickle wakes it once per task at most.
     */
    private static final int IDLE_LOOKS = 4;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** A busy worker whose task, taken this long ago, waits (asleep, parked, on a lock) is held by it. */
    static final long HELD_NANOS = 10 * GRACE_NANOS;
    /**
     * A busy worker whose task, taken this long ago, still runs is held too: blocked in a native call (a socket read)
     * or computing; one the scheduler only set aside on a saturated machine would have come back by then.
     */
    private static final long HELD_RUNNING_NANOS = 100 * GRACE_NANOS;
    private static final int SHARE_ONE = 1024;

    private record Queued(Runnable task, long atNanos) {
    }

    private final ThreadFactory factory;
    private final long keepAliveNanos;
    private final ConcurrentLinkedQueue<Queued> queue = new ConcurrentLinkedQueue<>();
    /** Parked idle workers, the most recently idle first. */
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    /** Workers not parked idle: running a task, between two, or woken and on their way. */
    private final AtomicInteger busy = new AtomicInteger();
    /** Workers woken or started that have not looked at the queue yet (the watcher counts their tasks as taken). */
    private final AtomicInteger starting = new AtomicInteger();
    /**
     * The share of recent tasks that took the grace or longer, in 1/{@value #SHARE_ONE} (a moving average written
     * racily by the workers: an estimate); at first, tasks count as long.
     */
    private volatile int longTaskShare = SHARE_ONE;
    private final Thread watcher;
    private volatile boolean watcherParked;
    private volatile boolean shutdown;
    private final Object termination = new Object();

    private ElasticWorkers(ThreadFactory factory, long keepAliveNanos) {
        this.factory = factory;
        this.keepAliveNanos = keepAliveNanos;
        this.watcher = factory.newThread(this::watch);
    }

    /** A started pool; its threads come from {@code factory}, idle ones end after {@code keepAlive}. */
    static ElasticWorkers start(ThreadFactory factory, long keepAlive, TimeUnit unit) {
        ElasticWorkers pool = new ElasticWorkers(factory, unit.toNanos(keepAlive));
        pool.watcher.start();
        return pool;
    }

    @Override
    public void execute(Runnable task) {
        if (shutdown) {
            throw new RejectedExecutionException("the worker pool is shut down");
        }
        queue.offer(new Queued(task, System.nanoTime()));
        // no busy thread will come free to take it; or tasks are mostly long, and an idle thread takes it now
        boolean given = busy.get() == 0 ? signal(true) : longTaskShare >= SHARE_ONE / 2 && signal(false);
        if (!given && watcherParked) {
            LockSupport.unpark(watcher); // also when no thread could be started: the watcher tries again
        }
    }

    /**
     * Wakes the most recently idle worker, or, with {@code mayStart}, starts one when none is idle; false when no
     * worker was woken or started (the task stays queued for the next free thread, and the watcher looks again).
     */
    private boolean signal(boolean mayStart) {
        Worker w = idle.pollFirst();
        if (w != null) {
            busy.incrementAndGet();
            starting.incrementAndGet();
            w.woken = true;
            LockSupport.unpark(w.thread);
            return true;
        }
        if (!mayStart) {
            return false;
        }
        busy.incrementAndGet();
        starting.incrementAndGet();
        Worker fresh = new Worker();
        try {
            fresh.thread = factory.newThread(fresh);
            workers.add(fresh);
            fresh.thread.start();
            return true;
        } catch (RuntimeException | OutOfMemoryError e) { // "unable to create native thread"
            workers.remove(fresh);
            busy.decrementAndGet();
            starting.decrementAndGet();
            return false;
        }
    }

    /**
     * Gives threads to the tasks that waited the grace. It looks every grace while tasks come, and parks until the next
     * task only after {@link #IDLE_LOOKS} looks found none: under load, tasks wake no one.
     */
    private void watch() {
        int emptyLooks = 0;
        while (!shutdown) {
            long now = System.nanoTime();
            Queued head = queue.peek();
            if (head == null) {
                if (emptyLooks < IDLE_LOOKS) {
                    LockSupport.parkNanos(this, GRACE_NANOS << emptyLooks++);
                    continue;
                }
                watcherParked = true;
                if (queue.peek() == null && !shutdown) {
                    LockSupport.park(this);
                }
                watcherParked = false;
                emptyLooks = 0;
                continue;
            }
            emptyLooks = 0;
            long waited = now - head.atNanos();
            if (waited < GRACE_NANOS) {
                LockSupport.parkNanos(this, GRACE_NANOS - waited);
                continue;
            }
            for (int i = threadsNeeded(now); i > 0 && !shutdown && signal(true); i--) {
                // a thread for a task that waited the grace
            }
            LockSupport.parkNanos(this, GRACE_NANOS);
        }
    }

    /** How many threads to wake or start for the tasks that waited the grace (see the class's rules). */
    private int threadsNeeded(long now) {
        int aged = 0;
        for (Queued q : queue) {
            if (now - q.atNanos() < GRACE_NANOS) {
                break; // queued in order: the rest are younger
            }
            aged++;
        }
        int need = aged - starting.get();
        if (need <= 0) {
            return 0;
        }
        return threadsToAdd(need, busy.get(), heldWorkers(now), CORES);
    }

    /**
     * The rule: busy threads not held by their task (young ones) take the queued tasks, and about one per core is
     * enough; when every busy thread is held, the threads at most double. Threads asleep in their task (a timed wait:
     * {@code Thread.sleep}, a wait with a timeout) are surely held: each may bring one young thread more, so a burst on
     * a blocking route doubles the threads about every {@link #HELD_NANOS} even while the last ones started are still
     * young. A thread held by a lock or by the scheduler (an asynchronous route's worker at the delayer's queue) looks
     * held only a moment: it brings no thread before every busy one is held, so such a route keeps a few dozen.
     *
     * @param need tasks that waited the grace, less the threads on their way to them
     */
    static int threadsToAdd(int need, int busy, Held held, int cores) {
        int young = busy - held.all();
        return Math.min(need, young > 0 ? Math.max(cores, held.asleep()) - young : Math.max(cores, busy));
    }

    /**
     * Busy workers held by their task ({@code all}): waiting (asleep, parked, on a lock) in one taken
     * {@link #HELD_NANOS} ago or earlier, or still running one taken {@link #HELD_RUNNING_NANOS} ago or earlier; of
     * them, those in a timed wait ({@code asleep}).
     */
    record Held(int all, int asleep) {
    }

    private Held heldWorkers(long now) {
        int held = 0;
        int asleep = 0;
        for (Worker w : workers) {
            long at = w.takenAtNanos;
            long running = now - at;
            if (at == 0 || running < HELD_NANOS) {
                continue;
            }
            Thread.State state = w.thread.getState();
            if (running >= HELD_RUNNING_NANOS || state != Thread.State.RUNNABLE) {
                held++;
                if (state == Thread.State.TIMED_WAITING) {
                    asleep++;
                }
            }
        }
        return new Held(held, asleep);
    }

    private final class Worker implements Runnable {
        volatile Thread thread;
        volatile boolean woken;
        /** When the running task was taken, 0 between tasks. */
        volatile long takenAtNanos;

        @Override
        public void run() {
            try {
                starting.decrementAndGet();
                while (true) {
                    Queued q = queue.poll();
                    if (q != null) {
                        runTask(q.task());
                    } else if (shutdown || !parkIdle()) {
                        return; // after a shutdown, once the queue is drained
                    }
                }
            } finally {
                workers.remove(this);
                synchronized (termination) {
                    termination.notifyAll();
                }
            }
        }

        private void runTask(Runnable task) {
            if (!shutdown) {
                Thread.interrupted(); // a stray interrupt of the last task must not reach the next one
            }
            long at = System.nanoTime();
            takenAtNanos = at;
            try {
                task.run();
            } catch (Throwable t) {
                Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
                if (handler != null) {
                    handler.uncaughtException(thread, t);
                }
            } finally {
                takenAtNanos = 0;
                int share = longTaskShare;
                longTaskShare = share + (((System.nanoTime() - at >= GRACE_NANOS ? SHARE_ONE : 0) - share) >> 4);
            }
        }

        /**
         * Parks until woken or the pool shuts down (true: look at the queue again), or until the keep-alive passed
         * (false: the thread ends).
         */
        private boolean parkIdle() {
            woken = false;
            idle.addFirst(this); // before it stops counting as busy: a submitter that sees none busy finds it idle
            busy.decrementAndGet();
            if ((queue.peek() != null || shutdown) && idle.removeFirstOccurrence(this)) {
                busy.incrementAndGet(); // a task came in while this thread went idle
                return true;
            }
            long deadline = System.nanoTime() + keepAliveNanos;
            while (!woken) {
                long left = deadline - System.nanoTime();
                if ((shutdown || left <= 0) && idle.removeFirstOccurrence(this)) {
                    if (!shutdown) {
                        return false; // idle for the keep-alive
                    }
                    busy.incrementAndGet();
                    return true; // shut down: drain what is queued, then end
                }
                // else taken off the idle list by a signal: woken is about to be set
                LockSupport.parkNanos(this, shutdown || left <= 0 ? TimeUnit.MILLISECONDS.toNanos(1) : left);
            }
            starting.decrementAndGet();
            return true;
        }
    }

    @Override
    public void shutdown() {
        shutdown = true;
        LockSupport.unpark(watcher);
        for (Worker w : workers) {
            LockSupport.unpark(w.thread); // idle ones see the shutdown and end; busy ones drain the queue first
        }
        if (workers.isEmpty() && !queue.isEmpty()) {
            signal(true); // tasks queued before the shutdown still run
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        List<Runnable> never = new ArrayList<>();
        Queued q;
        while ((q = queue.poll()) != null) {
            never.add(q.task());
        }
        for (Worker w : workers) {
            w.thread.interrupt();
        }
        return never;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && workers.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (termination) {
            while (!isTerminated()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(termination, left);
            }
        }
        return true;
    }
}
