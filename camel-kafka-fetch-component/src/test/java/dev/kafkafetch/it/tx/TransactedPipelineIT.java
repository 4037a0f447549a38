package dev.kafkafetch.it.tx;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A transacted read → write pipeline (maxConcurrency=64, ordering=KEY, {@code to("kafka-fetch:out")}) under a
 * cooperative rebalance and under an aborted transaction: a read_committed reader of the output sees every id exactly
 * once, and the input group's offsets end at the end of the input; the health checks show the transactions.
 */
class TransactedPipelineIT extends KafkaFetchITSupport {

    private static final String OPTIONS = "transacted=true&maxConcurrency=64&ordering=KEY&maxPollRecords=100"
                                          + "&maxInFlightRecords=1000&transactionTimeoutMs=10000"
                                          + "&partitionAssignor=org.apache.kafka.clients.consumer"
                                          + ".CooperativeStickyAssignor";

    /**
     * A second route member (two fetch tasks) joins mid-stream: the first's revoke commits a transaction for what it
     * hands over.
     */
    @Test
    void secondMemberJoiningKeepsEachOutputOnce() throws Exception {
        String in = KafkaTestSupport.uniqueName("tx-rebalance-in");
        String out = KafkaTestSupport.uniqueName("tx-rebalance-out");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(in, 6);
        kafka.createTopic(out, 3);
        List<String> produced = kafka.produceIds(in, 6000, "reb", 300);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        CamelContext first = startContext(pipeline("a", uri(in, group, OPTIONS + "&clientId=a"), out, a, 20));
        awaitCount(a, 1000, Duration.ofSeconds(30));
        // two fetch tasks: two more members, two more transactional producers (b-0, b-1)
        startContext(pipeline("b", uri(in, group, OPTIONS + "&clientId=b&consumersCount=2"), out, b, 20));
        awaitInputCommittedToEnd(group, in);

        OutputCheck output = OutputCheck.readCommitted(kafka.bootstrapServers(), out, produced);
        System.out.printf("tx-rebalance: ids=%d routedByA=%d routedByB=%d routedTwice=%d output %s, transactions %s%n",
                produced.size(), a.count(), b.count(), a.duplicates().size() + b.duplicates().size(), output,
                transactions(first, "a"));
        assertThat(b.count()).as("the second member took partitions over mid-stream").isPositive();
        assertThat(a.count()).as("the first member ran before and after").isLessThan(produced.size());
        assertThat(output.lost()).as("lost").isEmpty();
        assertThat(output.duplicates()).as("duplicates in the output (read_committed)").isZero();
    }

    /**
     * One record's first send is larger than the producer's max.request.size: its transaction aborts, every record
     * whose outputs it held runs again, and the output still has each id once.
     */
    @Test
    void failedSendAbortsAndRedelivers() throws Exception {
        String in = KafkaTestSupport.uniqueName("tx-abort-in");
        String out = KafkaTestSupport.uniqueName("tx-abort-out");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(in, 3);
        kafka.createTopic(out, 3);
        List<String> produced = kafka.produceIds(in, 3000, "abort", 300);
        String poison = produced.get(1500);
        AtomicBoolean oversized = new AtomicBoolean();
        AtomicInteger poisonRuns = new AtomicInteger();
        Recorder routed = new Recorder();
        Processor failFirstSend = e -> {
            if (poison.equals(e.getMessage().getBody(String.class))) {
                poisonRuns.incrementAndGet();
                if (oversized.compareAndSet(false, true)) {
                    e.getMessage().setBody(new byte[2 * 1024 * 1024]); // above max.request.size: the send fails
                }
            }
        };
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(in, group, OPTIONS + "&clientId=abort")).routeId("p").process(routed)
                        .process(e -> Thread.sleep(5)).process(failFirstSend).to("kafka-fetch:" + out);
            }
        });
        awaitInputCommittedToEnd(group, in);

        TxSnapshot tx = transactions(context, "p");
        OutputCheck output = OutputCheck.readCommitted(kafka.bootstrapServers(), out, produced);
        System.out.printf("tx-abort: ids=%d routed=%d routedTwice=%d poisonRuns=%d output %s, transactions %s%n",
                produced.size(), routed.count(), routed.duplicates().size(), poisonRuns.get(), output, tx);
        assertThat(tx.aborted()).as("the oversized send aborted a transaction").isPositive();
        assertThat(tx.lastAbort()).contains("RecordTooLarge");
        assertThat(poisonRuns.get()).as("the record whose output failed ran again").isGreaterThanOrEqualTo(2);
        assertThat(output.lost()).as("lost").isEmpty();
        assertThat(output.duplicates()).as("duplicates in the output (read_committed)").isZero();
        assertThat(output.counts().get(poison)).isEqualTo(1);

        // the health checks show the same transactions as the task's snapshot
        HealthCheck.Result readiness = HealthCheckHelper.invokeReadiness(context).stream()
                .filter(r -> r.getCheck().getId().equals("consumer:p")).findFirst().orElseThrow();
        Map<String, Object> details = readiness.getDetails();
        System.out.printf("tx-abort: health details %s%n", details);
        assertThat(details).containsEntry("task.0.tx.id", "kafka-fetch-" + group + "-abort-0")
                .containsEntry("task.0.tx.fenced", false).containsKeys("task.0.tx.outputs.waiting",
                        "task.0.tx.open.age.ms", "task.0.tx.last.commit.age.ms");
        assertThat((long) details.get("task.0.tx.aborted")).as("aborted in the health details")
                .isGreaterThanOrEqualTo(tx.aborted());
        assertThat((long) details.get("task.0.tx.committed")).as("committed in the health details")
                .isGreaterThanOrEqualTo(tx.committed()).isPositive();
        assertThat((long) details.get("task.0.tx.outputs.sent")).isGreaterThanOrEqualTo(produced.size());
        assertThat((String) details.get("task.0.tx.last.abort")).contains("RecordTooLarge");
        HealthCheck.Result liveness = HealthCheckHelper.invokeLiveness(context).stream()
                .filter(r -> r.getCheck().getId().equals("consumer:kafka-fetch-p")).findFirst().orElseThrow();
        assertThat(liveness.getDetails()).containsKeys("task.0.tx.committed", "task.0.tx.aborted",
                "task.0.tx.open.age.ms");
    }

    private static RouteBuilder pipeline(String id, String uri, String out, Recorder recorder, int sleepMs) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(id).process(recorder).process(e -> Thread.sleep(sleepMs)).to("kafka-fetch:" + out);
            }
        };
    }

    private static void awaitInputCommittedToEnd(String group, String in) {
        Map<TopicPartition, Long> end = kafka.endOffsets(in);
        await().atMost(Duration.ofSeconds(50)).pollInterval(Duration.ofMillis(100))
                .until(() -> kafka.committedOffsets(group, in).equals(end));
    }

    private static TxSnapshot transactions(CamelContext context, String route) {
        return ((KafkaFetchConsumer) context.getRoute(route).getConsumer()).tasks().get(0).transactions();
    }
}
