package dev.kafkafetch.dispatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link VirtualWorkers} on the runtime that runs the tests: on Java 21+ each task gets a new virtual thread, named with
 * the JDK's counter; on Java 17 it refuses, so {@link WorkerPool} falls back to Camel's pool.
 */
class VirtualWorkersTest {

    @Test
    void eachTaskRunsOnANewNamedVirtualThreadOrTheRuntimeHasNone() throws Exception {
        if (Runtime.version().feature() < 21) {
            assertThatThrownBy(() -> VirtualWorkers.create("w")).isInstanceOf(ReflectiveOperationException.class);
            return;
        }
        ExecutorService workers = VirtualWorkers.create("Camel (c) thread #1 - Worker[t]");
        try {
            CompletableFuture<Thread> first = new CompletableFuture<>();
            CompletableFuture<Thread> second = new CompletableFuture<>();
            workers.execute(() -> first.complete(Thread.currentThread()));
            workers.execute(() -> second.complete(Thread.currentThread()));
            Thread a = first.get(10, TimeUnit.SECONDS);
            Thread b = second.get(10, TimeUnit.SECONDS);
            assertThat((Boolean) Thread.class.getMethod("isVirtual").invoke(a)).as("virtual").isTrue();
            assertThat(a).as("a new thread per task").isNotSameAs(b);
            assertThat(a.getName()).startsWith("Camel (c) thread #1 - Worker[t] #");
            assertThat(b.getName()).isNotEqualTo(a.getName());
        } finally {
            workers.shutdown();
            assertThat(workers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
