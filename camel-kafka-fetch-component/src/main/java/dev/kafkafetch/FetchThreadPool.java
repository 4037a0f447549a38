package dev.kafkafetch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.camel.spi.ExecutorServiceManager;

/**
 * The single thread a fetch task runs on.
 * <p>
 * Guarantees: the thread is a platform thread named in Camel's pattern, also when Camel's virtual threads are on
 * ({@code camel.threads.virtual.enabled}; Camel's own thread factory would then make it virtual). A fetch thread is
 * one per client and lives as long as the route; it blocks in {@code poll()} for up to {@code pollTimeoutMs}, inside
 * the client's own locks, where a virtual thread would pin its carrier (before Java 24) and could starve the virtual
 * workers of carriers. It still owns its consumer alone (docs/design.md §4.1): the task runs on it from start to close.
 */
final class FetchThreadPool {

    private FetchThreadPool() {
    }

    /** A new single-thread pool; the caller shuts it down. */
    static ExecutorService create(ExecutorServiceManager esm, String name) {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, esm.resolveThreadName(name));
            thread.setDaemon(true);
            return thread;
        });
    }
}
