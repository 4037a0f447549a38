package dev.kafkafetch.dispatch;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class DemandThreadPoolTest {

    private final AtomicInteger created = new AtomicInteger();
    private final ThreadFactory factory = r -> {
        Thread t = new Thread(r, "DemandWorker-" + created.incrementAndGet());
        t.setDaemon(true);
        return t;
    };
    private DemandThreadPool pool = new DemandThreadPool(factory, 1, TimeUnit.MILLISECONDS, 60, TimeUnit.SECONDS);

    @AfterEach
    void close() {
        pool.shutdownNow();
    }

    @Test
    void shortTasksFromManyThreadsRunOnAFewThreads() throws Exception {
        int submitters = 8;
        int perSubmitter = 20_000;
        CountDownLatch done = new CountDownLatch(submitters * perSubmitter);
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        Thread[] feeders = new Thread[submitters];
        for (int s = 0; s < submitters; s++) {
            feeders[s] = new Thread(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    pool.execute(() -> {
                        ran.add(Thread.currentThread());
                        done.countDown();
                    });
                }
            });
            feeders[s].start();
        }
        for (Thread f : feeders) {
            f.join();
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        // like an asynchronous route's records, each task gives its thread back at once: the threads that are there
        // keep up, so a thread per task (160,000) or per task waiting at once is never started; a loaded machine that
        // keeps every thread off its core for a grace may add a few
        assertThat(ran).as("threads that ran tasks").hasSizeLessThan(64);
        assertThat(created.get()).as("threads started").isLessThan(64 + 1);
    }

    @Test
    void blockedThreadsGetCompanyUntilEveryBlockingTaskRuns() throws Exception {
        int tasks = 300;
        CountDownLatch allRunning = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                ran.add(Thread.currentThread());
                allRunning.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // execute() returned for every task although the threads block: none waits for a hand-off; then the keeper
        // sees the queue not moving and starts threads until each blocked task holds one of its own
        assertThat(allRunning.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).hasSize(tasks);
        assertThat(pool.threadCount()).isEqualTo(tasks);
        release.countDown();
    }

    @Test
    void aTaskQueuedBehindBusyThreadsRunsOnTheFirstThatComesFree() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        pool.execute(() -> {
            firstRunning.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            order.add("first");
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        CountDownLatch rest = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            String name = "queued-" + i;
            pool.execute(() -> {
                order.add(name);
                rest.countDown();
            });
        }
        release.countDown();
        assertThat(rest.await(10, TimeUnit.SECONDS)).isTrue();
        // premise: the first task's thread was the only one when the others were queued
        assertThat(order.get(0)).isEqualTo("first");
        assertThat(order.subList(1, 4)).containsExactly("queued-0", "queued-1", "queued-2");
    }

    @Test
    void aFailingTaskDoesNotCostTheThreadOrTheTasksAfterIt() throws Exception {
        CountDownLatch after = new CountDownLatch(1);
        Thread.UncaughtExceptionHandler quiet = (t, e) -> {
        };
        pool.execute(() -> {
            Thread.currentThread().setUncaughtExceptionHandler(quiet);
            throw new IllegalStateException("boom");
        });
        pool.execute(after::countDown);
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anInterruptLeftByATaskDoesNotSpinTheIdleThread() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            Thread.currentThread().interrupt();
            ran.countDown();
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threadCount() == 1);
        Thread worker = findThread("DemandWorker-1");
        // an idle thread parks; one whose park returns at once because of the interrupt burns its core meanwhile
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getThreadCpuTime(worker.getId());
        Thread.sleep(500);
        long cpuMs = TimeUnit.NANOSECONDS.toMillis(mx.getThreadCpuTime(worker.getId()) - cpu0);
        assertThat(cpuMs).as("CPU ms of the idle thread over 500 ms").isLessThan(100);
        CountDownLatch next = new CountDownLatch(1);
        pool.execute(() -> {
            if (!Thread.currentThread().isInterrupted()) {
                next.countDown();
            }
        });
        assertThat(next.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(created.get()).isEqualTo(1);
    }

    @Test
    void idleThreadsEndAfterTheKeepAlive() throws Exception {
        pool.shutdownNow();
        pool = new DemandThreadPool(factory, 1, TimeUnit.MILLISECONDS, 50, TimeUnit.MILLISECONDS);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(5);
        for (int i = 0; i < 5; i++) {
            pool.execute(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.threadCount()).isEqualTo(5);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.threadCount() == 0);
        CountDownLatch again = new CountDownLatch(1);
        pool.execute(again::countDown);
        assertThat(again.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownRunsWhatIsQueuedThenRefusesAndTerminates() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(2);
        pool.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ran.countDown();
        });
        pool.execute(ran::countDown);
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(() -> {
        })).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool.isTerminated()).isFalse();
        release.countDown();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void shutdownNowInterruptsRunningTasksAndReturnsTheQueuedOnes() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        // the keeper may start a thread for the queued task within a grace: ask right away, before it can
        Runnable queued = () -> {
        };
        pool.execute(queued);
        List<Runnable> left = pool.shutdownNow();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(left.size()).isLessThanOrEqualTo(1);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static Thread findThread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no thread " + name);
    }
}
