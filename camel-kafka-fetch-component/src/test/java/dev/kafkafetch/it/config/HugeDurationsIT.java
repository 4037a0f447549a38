package dev.kafkafetch.it.config;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * Durations as large as {@code Long.MAX_VALUE} do not overflow into their opposite: {@code autoCommitIntervalMs} either
 * fails the route start naming the option or makes interval commits rare (no commit on every poll loop), and
 * {@code revokeTimeoutMs} still makes a revoke wait for a running record, which is then finished and committed by the
 * first member instead of being re-delivered to the member that joined.
 */
class HugeDurationsIT extends KafkaFetchITSupport {

    private static final String HUGE = Long.toString(Long.MAX_VALUE);

    @Test
    void hugeAutoCommitIntervalCausesNoCommitStorm() throws Exception {
        String topic = KafkaTestSupport.uniqueName("huge-interval");
        kafka.createTopic(topic, 1);
        kafka.produceIds(topic, 1500, "hi", 10);
        AtomicInteger processed = new AtomicInteger();
        CamelContext context;
        try {
            context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, KafkaTestSupport.uniqueName("g"),
                            "finishedCommitIntervalMs=0&autoCommitIntervalMs=" + HUGE)).routeId("r")
                            .process(e -> {
                                Thread.sleep(2);
                                processed.incrementAndGet();
                            });
                }
            });
        } catch (Exception e) {
            // accepted outcome 1: the route refuses to start, naming the option
            assertThat(messages(e)).as("why the route did not start").contains("autoCommitIntervalMs");
            return;
        }
        // accepted outcome 2: it consumes, and commits do not happen on every loop
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(30)).until(() -> processed.get() > 0);
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.get() >= 1500
                                                           || System.nanoTime() - start > TimeUnit.SECONDS.toNanos(3));
        TaskSnapshot s = consumer.taskSnapshots().get(0);
        assertThat(s.commits()).as("commits while consuming %d records with autoCommitIntervalMs=%s (polls %d)",
                processed.get(), HUGE, s.polls()).isLessThanOrEqualTo(3);
    }

    /**
     * A guard for the rebuild: the code at 02b3fc6 passes this, because although {@code now + revokeTimeoutMs}
     * overflows, the wait left is computed as {@code deadline - now}, which wraps back to a positive number; a
     * {@code now < deadline} test would not.
     */
    @Test
    void hugeRevokeTimeoutStillWaitsForARunningRecord() throws Exception {
        String topic = KafkaTestSupport.uniqueName("huge-revoke");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        kafka.produce(topic, 0, "k", "slow", null);
        kafka.produce(topic, 1, "k", "fast", null);
        AtomicBoolean first = new AtomicBoolean(true);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger slowDeliveries = new AtomicInteger();
        RouteBuilder route = new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "revokeTimeoutMs=" + HUGE)).routeId("r")
                        .process(e -> {
                            if ("slow".equals(e.getMessage().getBody(String.class))) {
                                slowDeliveries.incrementAndGet();
                                if (first.compareAndSet(true, false)) {
                                    entered.countDown();
                                    release.await(30, TimeUnit.SECONDS);
                                }
                            }
                        });
            }
        };
        CamelContext member1 = startContext(route);
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the slow record reached member 1").isTrue();
            CamelContext member2 = startContext(route);
            KafkaFetchConsumer consumer2 = (KafkaFetchConsumer) member2.getRoute("r").getConsumer();
            // the second member's join makes member 1 revoke its partitions (eager RangeAssignor) while "slow" runs:
            // wait until member 1 is inside the revoke (correct) or the rebalance completed without it (today)
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> inRevoke(member1, topic) || !consumer2.taskSnapshots().get(0).partitions().isEmpty());
        } finally {
            release.countDown();
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
        Thread.sleep(500); // a late re-delivery would show now
        assertThat(slowDeliveries.get()).as("deliveries of the record that was running during the revoke")
                .isEqualTo(1);
    }

    /** Whether the member's fetch thread is inside a rebalance listener's onPartitionsRevoked. */
    private static boolean inRevoke(CamelContext context, String topic) {
        String name = "(" + context.getName() + ")";
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            String thread = e.getKey().getName();
            if (thread.contains(name) && thread.contains("KafkaFetchConsumer[" + topic + "]")) {
                for (StackTraceElement frame : e.getValue()) {
                    if (frame.getMethodName().equals("onPartitionsRevoked")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c).append('\n');
        }
        return sb.toString();
    }
}
