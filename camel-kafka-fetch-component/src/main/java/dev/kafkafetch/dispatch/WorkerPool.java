package dev.kafkafetch.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.camel.spi.ExecutorServiceManager;
import org.apache.camel.spi.ThreadPoolProfile;
import org.apache.camel.util.concurrent.CamelThreadFactory;
import org.apache.camel.util.concurrent.ThreadHelper;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.camel.util.concurrent.ThreadType;

/**
 * The pool the dispatchers run records on.
 * <p>
 * Guarantees: the pool never refuses a record before it is shut down, and a record waits for a thread at most about
 * {@link ElasticWorkers#GRACE_NANOS}. With Camel's virtual threads switched on ({@code camel.threads.virtual.enabled=true}
 * on Java 21+), every record gets a new virtual thread ({@link VirtualWorkers}). On platform threads ({@link ElasticWorkers}) a
 * record is taken by the first thread that comes free, and a thread is woken or started for it only when none is busy
 * or none came free within the grace. So a blocking route gets a thread per running record (at most the dispatchers'
 * slots, plus the abandoned records still stuck), while an asynchronous route, which gives its thread back at once,
 * runs thousands of records in flight on a few threads, and the threads completing its records hand the next ones on
 * without waking a thread per record. Idle threads end after a minute.
 */
public final class WorkerPool {

    private static final long KEEP_ALIVE_SECONDS = 60;

    private WorkerPool() {
    }

    /** A new pool whose threads are named {@code name} in Camel's pattern; the caller shuts it down. */
    public static ExecutorService create(ExecutorServiceManager esm, Object source, String scheme, String name) {
        if (ThreadType.current() == ThreadType.VIRTUAL) {
            try {
                return VirtualWorkers.create(ThreadHelper.resolveThreadName(esm.getThreadNamePattern(), name));
            } catch (ReflectiveOperationException | RuntimeException e) {
                // no virtual threads after all: Camel's pool decides what to give
            }
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
        return ElasticWorkers.start(new CamelThreadFactory(esm.getThreadNamePattern(), name, true), KEEP_ALIVE_SECONDS,
                TimeUnit.SECONDS);
    }
}
