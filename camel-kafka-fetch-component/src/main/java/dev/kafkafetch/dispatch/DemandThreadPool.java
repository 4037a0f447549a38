package dev.kafkafetch.dispatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The platform-thread pool the dispatchers run records on: threads are started only when the ones there cannot take
 * the work, and no caller ever waits.
 * <p>
 * Guarantees: {@link #execute} never blocks and never refuses a task before {@link #shutdown}. A task goes to an idle
 * thread at once (the one idle for the shortest time); with none idle it is queued, in order, for the next thread that
 * comes free. A keeper thread watches the queue: when tasks that were queued a {@link #grace} ago are still waiting,
 * the threads took fewer tasks over that time than are waiting, and most tasks hold their thread for five graces or
 * more (they block), new threads are started, at most as many as there are already (so a burst of
 * blocking records gets a thread each within a few graces, doubling), never more than are waiting. Threads that keep
 * taking tasks and mostly give them back sooner (an asynchronous route; work that waits for a core on a
 * loaded machine) are joined by more only when they took none for a whole grace, one at a time and up to a few dozen
 * ({@code max(16, 4 x cores)}): more threads would only share the same cores. The price: a route that blocks
 * for less than five graces per record runs on fewer threads than it has records in flight. So a blocking route gets a thread per running record, while
 * an asynchronous one, whose threads come back within microseconds, runs thousands of records in flight on a few.
 * The first task of a pool without threads starts one at once. Idle threads end after the keep-alive; beyond the
 * first few dozen, after a second (so a burst, such as the cold start of a route, leaves no crowd behind). O(1) per
 * task, under one short lock.
 */
final class DemandThreadPool extends AbstractExecutorService {

    private final ThreadFactory threads;
    private final long grace;
    private final long keepAliveNanos;
    private final long origin = System.nanoTime();
    /** How long an idle thread beyond the first {@link #quickCap} is kept. */
    private static final long SURPLUS_KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Threads that give their tasks back quickly are joined by more only up to this many. */
    private final int quickCap = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition keeperWake = lock.newCondition();
    private final Condition terminated = lock.newCondition();
    // guarded by lock
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    /** Idle threads, the most recently idle first. */
    private final ArrayDeque<Idle> idle = new ArrayDeque<>();
    private final Set<Thread> live = new HashSet<>();
    private long enqueued;
    private long taken;
    /**
     * The share of recent tasks that held their thread for a grace or more, in 1/1024ths (a moving average): a median
     * rather than a mean, so the few quick tasks a loaded machine keeps off their core for long do not count.
     */
    private int longShare;
    /** Threads running a task now, and the sum of when they started it (nanoseconds since {@link #origin}). */
    private int busy;
    private long busySince;
    private boolean keeperWaiting;
    private Thread keeper;
    private boolean shutdown;

    /** An idle thread waiting for a task handed to it directly. */
    private static final class Idle {
        final Thread thread = Thread.currentThread();
        volatile Runnable task;
        volatile long startedAt;
        volatile boolean released;
    }

    /**
     * @param grace how long queued tasks may wait without the threads taking as many before new threads start
     */
    DemandThreadPool(ThreadFactory threads, long grace, TimeUnit unit, long keepAlive, TimeUnit keepAliveUnit) {
        this.threads = threads;
        this.grace = unit.toNanos(grace);
        this.keepAliveNanos = keepAliveUnit.toNanos(keepAlive);
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        Idle handTo;
        boolean start = false;
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("the worker pool is shut down");
            }
            handTo = idle.pollFirst();
            if (handTo != null) {
                handTo.startedAt = begin();
                handTo.task = task;
            } else {
                queue.addLast(task);
                enqueued++;
                if (live.isEmpty()) {
                    start = true;
                } else if (keeper == null) {
                    keeper = threads.newThread(this::keep);
                    keeper.start();
                } else if (keeperWaiting) {
                    keeperWaiting = false;
                    keeperWake.signal();
                }
            }
        } finally {
            lock.unlock();
        }
        if (handTo != null) {
            LockSupport.unpark(handTo.thread);
        } else if (start) {
            startThreads(1);
        }
    }

    /** Threads alive now (idle or busy), for tests and snapshots. */
    int threadCount() {
        lock.lock();
        try {
            return live.size();
        } finally {
            lock.unlock();
        }
    }

    /** The keeper: while tasks wait, checks once per grace whether the threads keep up, and starts more if not. */
    private void keep() {
        long seenEnqueued = 0;
        long seenTaken = 0;
        while (true) {
            int toStart = 0;
            lock.lock();
            try {
                while (!shutdown && queue.isEmpty()) {
                    keeperWaiting = true;
                    keeperWake.awaitUninterruptibly();
                    seenEnqueued = taken; // nothing that waited before counts
                    seenTaken = taken;
                }
                if (shutdown) {
                    return;
                }
                long stillWaiting = seenEnqueued - taken; // queued before the last look, not taken yet
                long tookSince = taken - seenTaken;
                if (stillWaiting > tookSince && idle.isEmpty()) {
                    if (blocked()) {
                        toStart = (int) Math.min(stillWaiting - tookSince, Math.max(1, live.size()));
                    } else if (tookSince == 0 && live.size() < quickCap) {
                        toStart = 1; // quick threads took nothing for a grace (all off their cores, or one long task)
                    }
                }
                seenEnqueued = enqueued;
                seenTaken = taken;
            } finally {
                lock.unlock();
            }
            if (toStart > 0) {
                startThreads(toStart);
            }
            LockSupport.parkNanos(this, grace);
        }
    }

    /**
     * Under lock: the threads block in their tasks: most recent tasks held their thread for five graces or more, or the
     * tasks running now have run for a hundred graces on average (a blocking route, before its first records came
     * back).
     */
    private boolean blocked() {
        return longShare >= 512 || busy > 0 && (System.nanoTime() - origin) - busySince / busy >= 100 * grace;
    }

    /** Under lock: a thread starts a task now; returns when (nanoseconds since origin). */
    private long begin() {
        long now = Math.max(1, System.nanoTime() - origin); // 0 stands for no task
        busy++;
        busySince += now;
        return now;
    }

    private void startThreads(int n) {
        for (int i = 0; i < n; i++) {
            Thread t = threads.newThread(this::work);
            lock.lock();
            try {
                if (shutdown) {
                    return;
                }
                live.add(t);
            } finally {
                lock.unlock();
            }
            t.start();
        }
    }

    private void work() {
        Runnable task = null;
        long startedAt = 0;
        try {
            while (true) {
                if (task != null) {
                    try {
                        task.run();
                    } catch (Throwable t) {
                        Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(),
                                t);
                    }
                    task = null;
                }
                Idle me;
                boolean stopping;
                lock.lock();
                try {
                    if (task == null && startedAt != 0) {
                        int isLong = System.nanoTime() - origin - startedAt >= 5 * grace ? 1024 : 0;
                        longShare += (isLong - longShare) / 32;
                        busy--;
                        busySince -= startedAt;
                        startedAt = 0;
                    }
                    task = queue.pollFirst();
                    if (task != null) {
                        taken++;
                        startedAt = begin();
                        continue;
                    }
                    if (shutdown) {
                        return;
                    }
                    me = new Idle();
                    idle.addFirst(me);
                    stopping = shutdown;
                } finally {
                    lock.unlock();
                }
                if (!stopping) {
                    Thread.interrupted(); // a task's interrupt must not end the next one's wait
                }
                task = awaitTask(me);
                if (task == null) {
                    return; // idle for keepAlive, or shut down
                }
                startedAt = me.startedAt;
            }
        } finally {
            lock.lock();
            try {
                live.remove(Thread.currentThread());
                if (live.isEmpty()) {
                    terminated.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Parks until a task is handed over; null once idle for keepAlive (leaving the idle list) or shut down. */
    private Runnable awaitTask(Idle me) {
        long now = System.nanoTime();
        long deadline = now + keepAliveNanos;
        long surplusDeadline = now + Math.min(keepAliveNanos, SURPLUS_KEEP_ALIVE_NANOS);
        while (true) {
            Runnable task = me.task;
            if (task != null) {
                return task;
            }
            now = System.nanoTime();
            boolean surplusCheck = surplusDeadline != 0 && now - surplusDeadline >= 0;
            if (now - deadline >= 0 || me.released || surplusCheck) {
                lock.lock();
                try {
                    if (me.task != null) {
                        return me.task; // handed over meanwhile
                    }
                    if (now - deadline >= 0 || me.released || live.size() > quickCap) {
                        idle.remove(me);
                        return null;
                    }
                } finally {
                    lock.unlock();
                }
                surplusDeadline = 0; // one of the few kept: it waits out the full keep-alive
            }
            LockSupport.parkNanos(this, (surplusDeadline != 0 ? surplusDeadline : deadline) - now);
        }
    }

    @Override
    public void shutdown() {
        List<Idle> release;
        lock.lock();
        try {
            shutdown = true;
            release = new ArrayList<>(idle);
            keeperWake.signalAll();
        } finally {
            lock.unlock();
        }
        for (Idle i : release) {
            i.released = true;
            LockSupport.unpark(i.thread);
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> left;
        List<Thread> running;
        lock.lock();
        try {
            left = new ArrayList<>(queue);
            queue.clear();
            running = new ArrayList<>(live);
        } finally {
            lock.unlock();
        }
        shutdown();
        for (Thread t : running) {
            t.interrupt();
        }
        return left;
    }

    @Override
    public boolean isShutdown() {
        lock.lock();
        try {
            return shutdown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isTerminated() {
        lock.lock();
        try {
            return shutdown && live.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!(shutdown && live.isEmpty())) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
