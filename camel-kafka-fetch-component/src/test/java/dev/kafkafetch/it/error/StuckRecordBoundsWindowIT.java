package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One stuck record bounds memory and re-delivery (docs/design.md §4.3): with {@code ordering=UNORDERED}, no stall
 * timeout and one record blocked in the route, the records held since the committable offset — finished or not —
 * stay within {@code maxInFlightRecords}, so the route sees at most that many records of the partition while the
 * record is stuck and the task's in-flight count stays within the bound; once it is released everything completes
 * and nothing is lost.
 */
class StuckRecordBoundsWindowIT extends KafkaFetchITSupport {

    private static final int MAX_IN_FLIGHT = 200;

    @Test
    void routeSeesAtMostMaxInFlightRecordsWhileOneRecordIsStuck() throws Exception {
        String topic = KafkaTestSupport.uniqueName("stuck-window");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 5000, "sw", 50);
        String stuck = produced.get(0); // offset 0: nothing before it is committable
        AtomicBoolean stuckOnce = new AtomicBoolean();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger seen = new AtomicInteger();
        Recorder done = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "ordering=UNORDERED&maxConcurrency=4&maxPollRecords=50&maxInFlightRecords="
                                       + MAX_IN_FLIGHT))
                        .routeId("r")
                        .process(e -> {
                            seen.incrementAndGet();
                            String id = e.getMessage().getBody(String.class);
                            if (stuck.equals(id) && stuckOnce.compareAndSet(false, true)) {
                                entered.countDown();
                                release.await();
                            }
                        })
                        .process(done);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the stuck record reached the route").isTrue();
            // watch until the route went quiet for 1.5 s (or clearly broke the bound)
            AtomicInteger maxInFlight = new AtomicInteger();
            long[] lastChange = { System.nanoTime(), seen.get() };
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                for (TaskSnapshot s : consumer.taskSnapshots()) {
                    maxInFlight.accumulateAndGet(s.inFlight(), Math::max);
                }
                int now = seen.get();
                if (now != lastChange[1]) {
                    lastChange[0] = System.nanoTime();
                    lastChange[1] = now;
                }
                return now > MAX_IN_FLIGHT || System.nanoTime() - lastChange[0] > TimeUnit.MILLISECONDS.toNanos(1500);
            });
            assertThat(seen.get()).as("records the route saw while %s was stuck (maxInFlightRecords %d)", stuck,
                    MAX_IN_FLIGHT).isLessThanOrEqualTo(MAX_IN_FLIGHT);
            assertThat(maxInFlight.get()).as("snapshot inFlight while stuck").isLessThanOrEqualTo(MAX_IN_FLIGHT);
            assertThat(consumer.taskSnapshots().get(0).inFlight()).isLessThanOrEqualTo(MAX_IN_FLIGHT);
        } finally {
            release.countDown();
        }
        awaitCount(done, produced.size(), Duration.ofSeconds(30));
        assertThat(done.lost(produced)).as("lost").isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.taskSnapshots().get(0).inFlight() == 0);
    }
}
