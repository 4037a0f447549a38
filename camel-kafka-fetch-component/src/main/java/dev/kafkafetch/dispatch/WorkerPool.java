package dev.kafkafetch.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.util.concurrent.CamelThreadFactory;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.camel.util.concurrent.ThreadType;

/**
 * The pool the dispatchers run records on.
 * <p>
 * Guarantees: handing a record over never blocks the caller (a fetch thread, or the thread a completion came on), and
 * the pool never refuses one before it is shut down. With Camel's virtual threads switched on ({@code camel.threads.virtual.enabled=true} on Java 21+), Camel's own pool gives
 * every record a new virtual thread. On platform threads ({@link DemandThreadPool}) a record goes to an idle thread, or
 * waits for the next one that comes free; new threads start only once the queued records have waited
 * {@link #GRACE_MICROS} while the threads took fewer than that many (they are blocked), and the caller never waits
 * for a hand-off. So a blocking route gets a thread per running record (at most the dispatchers' slots, plus the
 * abandoned records still stuck), while an asynchronous route, which gives its thread back at once, runs thousands
 * of records in flight on a few threads. Idle threads end after a minute.
 */
public final class WorkerPool {

    /**
     * How long queued records may wait while the threads take fewer than that many before new threads start (see
     * {@link DemandThreadPool}).
     */
    static final long GRACE_MICROS = 1000;
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
        return new DemandThreadPool(new CamelThreadFactory(esm.getThreadNamePattern(), name, true),
                GRACE_MICROS, TimeUnit.MICROSECONDS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
    }
}
