package dev.kafkafetch.dispatch;

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

    @Test
    void aTaskThatThrowsCostsNoThreadAndTheNextRuns() throws Exception {
        AtomicReference<Throwable> reported = new AtomicReference<>();
        pool = ElasticWorkers.start(r -> {
            Thread t = new Thread(r, "ElasticWorkersTest");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> reported.set(e));
            return t;
        }, 60, TimeUnit.SECONDS);
        pool.execute(() -> {
            throw new IllegalStateException("boom");
        });
        CountDownLatch next = new CountDownLatch(1);
        pool.execute(next::countDown);
        assertThat(next.await(10, TimeUnit.SECONDS)).isTrue();
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
