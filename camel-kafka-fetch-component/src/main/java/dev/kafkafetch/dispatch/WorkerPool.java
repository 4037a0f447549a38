package dev.kafkafetch.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.util.concurrent.CamelThreadFactory;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.camel.util.concurrent.ThreadType;

/**
 * The pool the dispatchers run records on.
 * <p>
 * Guarantees: a record never waits in a queue: it is handed to a thread at once, and the pool never refuses one. With
 * Camel's virtual threads switched on ({@code camel.threads.virtual.enabled=true} on Java 21+), Camel's own pool gives
 * every record a new virtual thread. On platform threads a record goes to an idle thread, or to one that becomes idle
 * within {@link #HAND_OFF_GRACE_NANOS}; only then is a new thread started. So a blocking route gets a thread per
 * running record (at most the dispatchers' slots, plus the abandoned records still stuck), while an asynchronous
 * route, which gives its thread back at once, runs thousands of records in flight on a few threads. Idle threads end
 * after a minute.
 */
public final class WorkerPool {

    /** How long a hand-off waits for a thread to become idle before it starts a new one. */
    static final long HAND_OFF_GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long KEEP_ALIVE_SECONDS = 60;

    private WorkerPool() {
    }

    /** A new pool whose threads are named {@code name} in Camel's pattern; the caller shuts it down. */
    public static ExecutorService create(ExecutorServiceManager esm, Object source, String scheme, String name) {
        if (ThreadType.current() == ThreadType.VIRTUAL) {
            ThreadPoolProfile profile = new ThreadPoolProfile(scheme + "-workers");
            // a core above zero and no queue: Camel then hands out a new virtual thread per task
            profile.setPoolSize(1);
            profile.setMaxPoolSize(Integer.MAX_VALUE);
            profile.setMaxQueueSize(0);
            profile.setKeepAliveTime(KEEP_ALIVE_SECONDS);
            profile.setAllowCoreThreadTimeOut(true);
            profile.setRejectedPolicy(ThreadPoolRejectedPolicy.Abort);
            return esm.newThreadPool(source, name, profile);
        }
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new GracefulHandOff(), new CamelThreadFactory(esm.getThreadNamePattern(), name, true));
    }

    /**
     * A hand-off with no capacity whose offer waits briefly for a thread to take the task: the pool starts a new
     * thread only when the offer fails.
     */
    private static final class GracefulHandOff extends SynchronousQueue<Runnable> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean offer(Runnable task) {
            if (super.offer(task)) {
                return true;
            }
            try {
                return super.offer(task, HAND_OFF_GRACE_NANOS, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
