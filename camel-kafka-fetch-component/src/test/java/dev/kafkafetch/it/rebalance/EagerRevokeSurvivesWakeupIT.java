package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An eager rebalance (classic protocol, default assignor) survives a wakeup that arrives while the revoke callback
 * waits for running records: here a route suspend/resume, which wakes the consumer. The wakeup must not abort the
 * callback's commit halfway (which would leave the kept partition with cancelled records that never finish and the
 * moved one with a stale window): afterwards every record is processed, no task keeps records in flight, and the
 * group's committed offsets reach the end offsets.
 */
class EagerRevokeSurvivesWakeupIT extends KafkaFetchITSupport {

    /** The fetch task's rebalance listener (package-private, so named here). */
    private static final String REVOKE_CALLBACK_CLASS = "dev.kafkafetch.task.PartitionStates";

    @Test
    void aWakeupDuringTheRevokeCallbackLosesNothing() throws Exception {
        String topic = KafkaTestSupport.uniqueName("revoke-wakeup");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            for (int p = 0; p < 2; p++) {
                String id = "id-" + p + "-" + i;
                kafka.produce(topic, p, "k" + i, id, null);
                produced.add(id);
            }
        }
        Set<String> blockers = Set.of("id-0-5", "id-1-5");
        Set<String> started = ConcurrentHashMap.newKeySet();
        CountDownLatch blockersRunning = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        String options = "maxConcurrency=2&revokeTimeoutMs=20000";
        CamelContext ctxA = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("a")
                        .process(e -> {
                            String id = e.getMessage().getBody(String.class);
                            if (blockers.contains(id) && started.add(id)) {
                                blockersRunning.countDown();
                                release.await(30, TimeUnit.SECONDS); // still running when the rebalance starts
                            }
                        })
                        .process(a);
            }
        });
        KafkaFetchConsumer consumerA = (KafkaFetchConsumer) ctxA.getRoute("a").getConsumer();
        assertThat(blockersRunning.await(30, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> !kafka.committedOffsets(group, topic).isEmpty());

        // a second member joins: the eager rebalance revokes both partitions of A, whose callback waits for them
        CamelContext ctxB = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, options)).routeId("b").process(b);
            }
        });
        KafkaFetchConsumer consumerB = (KafkaFetchConsumer) ctxB.getRoute("b").getConsumer();
        // the premise: A's fetch thread waits for the running blockers inside its revoke callback
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .alias("A's fetch thread waiting in the revoke callback (the test's premise)")
                .until(EagerRevokeSurvivesWakeupIT::aFetchThreadWaitsInTheRevokeCallback);
        // a wakeup arrives while the callback waits (a route suspend and resume; a manual commit request, the
        // Pausable EIP or the back-pressure wake do the same), then the running records finish
        consumerA.suspend();
        consumerA.resume();
        assertThat(aFetchThreadWaitsInTheRevokeCallback()).as("still in the revoke callback after the wakeup").isTrue();
        release.countDown();

        await().atMost(Duration.ofSeconds(30)).until(() -> !partitions(consumerB).isEmpty());
        try {
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                    .until(() -> seen(a, b).containsAll(produced));
        } catch (ConditionTimeoutException e) {
            // the assertion below names what is missing
        }
        Set<String> lost = new HashSet<>(produced);
        lost.removeAll(seen(a, b));
        assertThat(lost).as("lost").isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(inFlight(consumerA)).as("records in flight in A").isZero();
            assertThat(inFlight(consumerB)).as("records in flight in B").isZero();
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .as("committed offsets").isEqualTo(kafka.endOffsets(topic)));
        assertThat(partitions(consumerA)).as("partitions A still holds a window for, besides B's")
                .doesNotContainAnyElementsOf(partitions(consumerB));
    }

    /**
     * True while some thread is inside the fetch task's revoke callback, waiting there for running records (read from
     * the live stack traces: the callback publishes nothing while it waits). Only A has running records to wait for.
     */
    private static boolean aFetchThreadWaitsInTheRevokeCallback() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> {
            boolean inCallback = false;
            boolean waiting = false;
            for (StackTraceElement f : stack) {
                if (REVOKE_CALLBACK_CLASS.equals(f.getClassName())) {
                    inCallback |= "onPartitionsRevoked".equals(f.getMethodName());
                    waiting |= "awaitRunning".equals(f.getMethodName());
                }
            }
            return inCallback && waiting;
        });
    }

    private static Set<Integer> partitions(KafkaFetchConsumer consumer) {
        Set<Integer> set = new HashSet<>();
        consumer.taskSnapshots().forEach(s -> s.partitions().forEach(p -> set.add(p.partition())));
        return set;
    }

    private static int inFlight(KafkaFetchConsumer consumer) {
        return consumer.taskSnapshots().stream().mapToInt(TaskSnapshot::inFlight).sum();
    }

    private static Set<String> seen(Recorder... recorders) {
        Set<String> ids = new HashSet<>();
        for (Recorder r : recorders) {
            ids.addAll(r.ids());
        }
        return ids;
    }
}
