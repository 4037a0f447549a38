package dev.kafkafetch.dispatch;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerPoolTest {

    private CamelContext context;
    private ExecutorService pool;

    @BeforeEach
    void createPool() {
        context = new DefaultCamelContext();
        pool = WorkerPool.create(context.getExecutorServiceManager(), this, "test", "TestWorker");
    }

    @AfterEach
    void close() throws Exception {
        pool.shutdownNow();
        context.close();
    }

    @Test
    void quickTasksOneAfterAnotherReuseOneThread() throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 500; i++) {
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                threads.add(Thread.currentThread());
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
        // each task is over before the next is handed off, so an idle thread takes it; a thread per task would be 500
        // (a few more may start when a loaded machine keeps the idle one from the hand-off for over the grace)
        assertThat(threads).hasSizeLessThan(50);
        assertThat(threads).allMatch(t -> t.getName().contains("TestWorker"));
    }

    @Test
    void blockingTasksEachGetAThreadAtOnce() throws Exception {
        int tasks = 50;
        CountDownLatch allRunning = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                threads.add(Thread.currentThread());
                allRunning.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // nothing waits in a queue and nothing is refused: every blocked task holds a thread of its own
        assertThat(allRunning.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads).hasSize(tasks);
        release.countDown();
    }

    @Test
    void aStreamOfShortTasksHandedOnByOtherThreadsRunsOnAFewThreads() throws Exception {
        // like an asynchronous route: each task is short, and four "completion" threads submit the next ones as
        // earlier ones end, 40,000 in all
        int perSubmitter = 10_000;
        CountDownLatch done = new CountDownLatch(4 * perSubmitter);
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        Runnable shortTask = () -> {
            ran.add(Thread.currentThread());
            long until = System.nanoTime() + 5_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            done.countDown();
        };
        for (int s = 0; s < 4; s++) {
            new Thread(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    pool.execute(shortTask);
                    if (i % 100 == 0) {
                        Thread.yield();
                    }
                }
            }).start();
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        // a thread per task would be 40,000, a thread per hand-off hundreds; a few per core is what they need
        assertThat(ran).hasSizeLessThanOrEqualTo(48);
        assertThat(ran).allMatch(t -> t.getName().contains("TestWorker"));
    }
}
