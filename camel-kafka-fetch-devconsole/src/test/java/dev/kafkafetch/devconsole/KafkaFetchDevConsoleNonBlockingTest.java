package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Calling the {@code kafka-fetch} console 1,000 times (TEXT and JSON) while a route consumes neither blocks nor slows
 * the fetch thread: every call returns promptly, and during the calls the fetch thread keeps polling, finishing
 * records and publishing fresh snapshots — the console shares no lock with it.
 */
class KafkaFetchDevConsoleNonBlockingTest extends DevConsoleTestSupport {

    @Test
    void thousandCallsWhileConsumingDoNotBlockTheFetchThread() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-calls");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 3);
        int count = 3000;
        kafka.produceIds(topic, count, "c", 30);
        AtomicInteger processed = new AtomicInteger();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // ~1 ms per record, one at a time: consumption lasts a few seconds; short poll timeout so that
                // snapshots stay fresh even when idle
                from(uri(topic, group, "pollTimeoutMs=100&maxPollRecords=50&maxInFlightRecords=100"))
                        .routeId("busy")
                        .process(e -> {
                            Thread.sleep(1);
                            processed.incrementAndGet();
                        });
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("busy").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> processed.get() > 0);

        DevConsole console = console(context);
        TaskSnapshot before = consumer.taskSnapshots().get(0);
        long maxCallNanos = 0;
        long callNanos = 0;
        long maxSnapshotAgeMs = 0;
        for (int i = 0; i < 1000; i++) {
            long t0 = System.nanoTime();
            Object out = console.call(i % 2 == 0 ? DevConsole.MediaType.TEXT : DevConsole.MediaType.JSON, Map.of());
            long took = System.nanoTime() - t0;
            callNanos += took;
            maxCallNanos = Math.max(maxCallNanos, took);
            assertThat(out).isNotNull();
            TaskSnapshot s = consumer.taskSnapshots().get(0);
            maxSnapshotAgeMs = Math.max(maxSnapshotAgeMs, System.currentTimeMillis() - s.snapshotTime());
            // spread the calls over about a second, so that the fetch thread's progress during them is measurable
            Thread.sleep(1);
        }
        long totalMs = TimeUnit.NANOSECONDS.toMillis(callNanos);
        TaskSnapshot after = consumer.taskSnapshots().get(0);

        System.out.printf("1000 console calls took %d ms (slowest %d ms); polls %d -> %d, finished %d -> %d,"
                          + " oldest snapshot seen %d ms%n",
                totalMs, TimeUnit.NANOSECONDS.toMillis(maxCallNanos),
                before.polls(), after.polls(), before.recordsFinished(), after.recordsFinished(), maxSnapshotAgeMs);
        // generous bounds: these guard against blocking (seconds), not against slowness of a loaded machine
        assertThat(totalMs).as("1000 calls, total ms").isLessThan(10_000);
        assertThat(TimeUnit.NANOSECONDS.toMillis(maxCallNanos)).as("slowest call, ms").isLessThan(1_000);
        // the fetch thread went on polling and finishing records during the calls, publishing fresh snapshots
        assertThat(after.polls()).isGreaterThan(before.polls());
        assertThat(after.recordsFinished()).isGreaterThan(before.recordsFinished());
        assertThat(maxSnapshotAgeMs).as("oldest snapshot seen during the calls, ms").isLessThan(2_000);

        await().atMost(Duration.ofSeconds(30)).until(() -> processed.get() == count);
    }
}
