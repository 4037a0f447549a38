package dev.kafkafetch.it.rebalance;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.ExecutionLog;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PARTITION ordering holds across a revoke and re-assignment to the same member: a record still running after
 * {@code revokeTimeoutMs} is left behind by the revoke, the partition comes straight back (a second member joins the
 * group subscribed to another topic, which forces an eager rebalance that gives every partition back), and its
 * re-delivery must not run alongside it. The test first checks that the slow record was still running when the
 * partition came back (and fails if not); then that no two executions of the partition overlapped and nothing is lost.
 */
class PartitionOrderAcrossReassignIT extends KafkaFetchITSupport {

    @Test
    void aRecordLeftRunningByARevokeDoesNotRunAlongsideItsRedelivery() throws Exception {
        String topic = KafkaTestSupport.uniqueName("order-reassign");
        String other = KafkaTestSupport.uniqueName("other");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(other, 1);
        List<String> produced = kafka.produceIds(topic, 20, "r", 4);
        String slow = produced.get(5);
        ExecutionLog executions = new ExecutionLog();
        CountDownLatch slowRunning = new CountDownLatch(1);
        CountDownLatch partitionBack = new CountDownLatch(1);
        CountDownLatch overlapSeen = new CountDownLatch(1);
        CamelContext a = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "maxConcurrency=4&revokeTimeoutMs=200")).routeId("a")
                        .process(executions.around(e -> {
                            String id = e.getMessage().getBody(String.class);
                            if (id.equals(slow) && executions.of(slow).size() == 1) {
                                slowRunning.countDown();
                                // runs until its partition is back plus 3 s for the re-delivery to (wrongly) start
                                // alongside it, or until another record of the partition starts (it must not)
                                if (partitionBack.await(60, TimeUnit.SECONDS)) {
                                    overlapSeen.await(3, TimeUnit.SECONDS);
                                }
                            } else if (slowRunning.getCount() == 0) {
                                overlapSeen.countDown(); // started while the slow one may still run
                            }
                        }));
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) a.getRoute("a").getConsumer();
        assertThat(slowRunning.await(30, TimeUnit.SECONDS)).isTrue();
        long rebalancesBefore = consumer.taskSnapshots().get(0).rebalances();
        // a second member of the group, subscribed to another topic: every partition of the topic comes back to A
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(other, group, "")).routeId("b").log("${body}");
            }
        });
        AtomicBoolean slowRanWhenBack = new AtomicBoolean();
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                boolean slowRunningNow = executions.of(slow).get(0).end() == 0; // read before the snapshot
                boolean back = consumer.taskSnapshots().get(0).rebalances() > rebalancesBefore
                               && consumer.taskSnapshots().get(0).partitions().size() == 1;
                slowRanWhenBack.set(slowRunningNow);
                return back;
            });
        } finally {
            partitionBack.countDown();
        }
        // the premise: the slow record, left behind by the revoke, was still running when its partition came back
        assertThat(slowRanWhenBack).as("the slow record still ran when its partition came back").isTrue();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> executions.succeededIds().containsAll(produced));
        Thread.sleep(500);

        assertThat(executions.overlaps(ExecutionLog.Execution::partition))
                .as("executions of one partition that overlapped").isEmpty();
        assertThat(produced).allMatch(executions.succeededIds()::contains);
    }
}
