package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records that stall and never return do not make worker threads grow without bound: with every record blocking
 * forever ({@code stallTimeoutMs=200}, a dead-letter topic, {@code maxConcurrency=2}), the route's live worker threads
 * stay within 2 × maxConcurrency (+1), for as long as it takes today's code to abandon 30 records, and the task says
 * so (its last error names stalled records that are still running).
 */
class StalledRecordsBoundWorkerThreadsIT extends KafkaFetchITSupport {

    private static final int MAX_CONCURRENCY = 2;

    @Test
    void workerThreadsStayBoundedWhileRecordsStallForever() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stall-threads");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        kafka.produceIds(topic, 100, "st", 10);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "ordering=UNORDERED&maxConcurrency=" + MAX_CONCURRENCY
                                                                  + "&stallTimeoutMs=200&deadLetterTopic=" + dlt))
                        .routeId("r")
                        .process(e -> {
                            entered.incrementAndGet();
                            release.await(); // every record blocks until the test ends
                        });
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        String workerName = "KafkaFetchWorker[" + topic + "]";
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> entered.get() > 0);
            // today 30 records are abandoned (each leaving its thread behind) within a few seconds; watch 10 s at most
            AtomicInteger maxThreads = new AtomicInteger();
            long start = System.nanoTime();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                maxThreads.accumulateAndGet(liveThreads(workerName), Math::max);
                return stalled(consumer) >= 30 || System.nanoTime() - start > TimeUnit.SECONDS.toNanos(10);
            });
            assertThat(maxThreads.get()).as("live %s threads (maxConcurrency %d) after %d stalled records",
                    workerName, MAX_CONCURRENCY, stalled(consumer)).isLessThanOrEqualTo(2 * MAX_CONCURRENCY + 1);
            String lastError = consumer.taskSnapshots().get(0).lastError();
            assertThat(lastError).as("last error").isNotNull().containsIgnoringCase("stall")
                    .containsIgnoringCase("running");
        } finally {
            release.countDown();
        }
    }

    private static long stalled(KafkaFetchConsumer consumer) {
        return consumer.taskSnapshots().stream().mapToLong(TaskSnapshot::recordsStalled).sum();
    }

    private static int liveThreads(String nameContains) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().contains(nameContains)) {
                n++;
            }
        }
        return n;
    }
}
