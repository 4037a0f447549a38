package dev.kafkafetch.dispatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * A new virtual thread per task, on Java 21+ (reached through the JDK's public API by reflection, as Camel does: this
 * build targets Java 17). The threads are named {@code name #1}, {@code name #2}, …: the JDK's own counter, so
 * starting one costs no resolution of Camel's thread name pattern (a pattern match per thread, on the thread that
 * dispatches the record: the fetch thread for most of them).
 */
final class VirtualWorkers {

    private VirtualWorkers() {
    }

    /** The executor; throws when this runtime has no virtual threads. */
    static ExecutorService create(String name) throws ReflectiveOperationException {
        Class<?> builderType = Class.forName("java.lang.Thread$Builder");
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        builder = builderType.getMethod("name", String.class, long.class).invoke(builder, name + " #", 1L);
        ThreadFactory factory = (ThreadFactory) builderType.getMethod("factory").invoke(builder);
        return (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class)
                .invoke(null, factory);
    }
}
