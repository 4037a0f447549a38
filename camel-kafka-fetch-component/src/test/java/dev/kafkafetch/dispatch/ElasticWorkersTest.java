package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The platform-thread pool's own guarantees: blocked tasks never hold others up, nothing is lost at a shutdown. */
class ElasticWorkersTest {

    private final Set<Thread> started = ConcurrentHashMap.newKeySet();
    private ElasticWorkers pool;

    private ElasticWorkers start(long keepAliveMillis) {
        pool = ElasticWorkers.start(r -> {
            Thread t = new Thread(r, "ElasticWorkersTest");
            t.setDaemon(true);
            started.add(t);
            return t;
        }, keepAliveMillis, TimeUnit.MILLISECONDS);
        return pool;
    }

    @AfterEach
    void close() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void tasksQueuedBehindBlockedOnesGetThreadsOfTheirOwn() throws Exception {
        start(60_000);
        int tasks = 200;
        CountDownLatch allRunning = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        // short tasks first, so that the pool starts out expecting short ones
        CountDownLatch warm = new CountDownLatch(1000);
        for (int i = 0; i < 1000; i++) {
            pool.execute(warm::countDown);
        }
        assertThat(warm.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                allRunning.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // every blocked task holds a thread, and none waits for another to end
        assertThat(allRunning.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
    }

    /**
     * A burst of blocking tasks on a fresh pool (a blocking route after a quiet minute) gets its threads by doublings.
     * The watcher's rule, played look by look (every grace; a thread is held {@code HELD_NANOS} after it took its
     * task): before the fix, threads started one look apart were never all held at once, so the pool grew by about one
     * thread per core per millisecond and 256 blocked tasks waited 127 ms for their threads (32 slots 15 ms).
     */
    @Test
    void aBurstOfBlockingTasksGetsItsThreadsByDoublings() {
        int tasks = 256;
        int cores = 2;
        long heldAfterLooks = ElasticWorkers.HELD_NANOS / ElasticWorkers.GRACE_NANOS;
        List<Long> startedAtLook = new ArrayList<>(List.of(0L)); // the submitter starts the first thread
        long look = 0;
        while (startedAtLook.size() < tasks && look < 10_000) {
            look++;
            long now = look;
            int held = (int) startedAtLook.stream().filter(at -> now - at >= heldAfterLooks).count();
            int add = ElasticWorkers.threadsToAdd(tasks - startedAtLook.size(), startedAtLook.size(),
                    new ElasticWorkers.Held(held, held), cores); // each held one asleep (Thread.sleep in the route)
            for (int i = 0; i < add; i++) {
                startedAtLook.add(now);
            }
        }
        double millis = look * ElasticWorkers.GRACE_NANOS / 1e6;
        assertThat(millis).as("ms until %d blocking tasks have threads", tasks).isLessThan(20);
    }

    /**
     * Threads that are not asleep in their task (an asynchronous route's, held a moment by a lock or the scheduler) bring
     * no thread while any busy one is young: about one per core, at most a doubling once all are held.
     */
    @Test
    void threadsHeldByALockBringNoThreadWhileAnyIsYoung() {
        assertThat(ElasticWorkers.threadsToAdd(1000, 1, new ElasticWorkers.Held(0, 0), 2)).isEqualTo(1);
        assertThat(ElasticWorkers.threadsToAdd(1000, 2, new ElasticWorkers.Held(0, 0), 2)).isZero();
        assertThat(ElasticWorkers.threadsToAdd(1000, 40, new ElasticWorkers.Held(30, 0), 2)).isNegative();
        assertThat(ElasticWorkers.threadsToAdd(1000, 40, new ElasticWorkers.Held(40, 0), 2)).isEqualTo(40);
        // asleep ones bring as many young ones, no more
        assertThat(ElasticWorkers.threadsToAdd(1000, 40, new ElasticWorkers.Held(30, 20), 2)).isEqualTo(10);
        assertThat(ElasticWorkers.threadsToAdd(1000, 40, new ElasticWorkers.Held(30, 30), 2)).isEqualTo(20);
        assertThat(ElasticWorkers.threadsToAdd(5, 40, new ElasticWorkers.Held(30, 30), 2)).isEqualTo(5);
    }

    @Test
    void aTaskThatThrowsCostsNoThreadAndTheNextRuns() throws Exception {
        AtomicReference<Throwable> reported = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        pool = ElasticWorkers.start(r -> {
            Thread t = new Thread(r, "ElasticWorkersTest");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> {
                reported.set(e);
                handled.countDown();
            });
            return t;
        }, 60, TimeUnit.SECONDS);
        pool.execute(() -> {
            throw new IllegalStateException("boom");
        });
        CountDownLatch next = new CountDownLatch(1);
        pool.execute(next::countDown);
        assertThat(next.await(10, TimeUnit.SECONDS)).isTrue();
        // the next task may run on a thread the watcher started before the first one's handler ran: wait for both
        assertThat(handled.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reported.get()).hasMessage("boom");
    }

    @Test
    void idleThreadsEndAfterTheKeepAlive() throws Exception {
        start(100);
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(started).as("the watcher and the thread that ran the task").hasSize(2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (started.stream().filter(Thread::isAlive).count() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(started.stream().filter(Thread::isAlive).count()).as("only the watcher is left").isEqualTo(1);
        // and a later task still runs
        CountDownLatch again = new CountDownLatch(1);
        pool.execute(again::countDown);
        assertThat(again.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownNowInterruptsRunningTasksReturnsQueuedOnesAndTerminates() throws Exception {
        start(60_000);
        CountDownLatch running = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        pool.execute(() -> {
            running.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        List<Runnable> never = pool.shutdownNow();

        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.get()).isEqualTo(1);
        assertThat(never).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
        assertThatThrownBy(() -> pool.execute(() -> {
        })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void shutdownRunsWhatWasQueuedBeforeIt() throws Exception {
        start(60_000);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        pool.execute(() -> {
            blocked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            pool.execute(ran::incrementAndGet);
        }
        pool.shutdown();
        release.countDown();

        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran.get()).isEqualTo(10);
    }
}
