package dev.kafkafetch.it.tx;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The only broker (group and transaction coordinator too) stopped and restarted mid-stream under a transacted
 * pipeline of 10,000 ids (maxConcurrency=64, ordering=KEY): a read_committed reader of the output sees every id
 * exactly once and the input offsets end at the end.
 */
class TransactedBrokerRestartIT extends KafkaFetchITSupport {

    @Test
    void brokerRestartKeepsEachOutputOnce() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            String in = KafkaTestSupport.uniqueName("tx-restart-in");
            String out = KafkaTestSupport.uniqueName("tx-restart-out");
            String group = KafkaTestSupport.uniqueName("g");
            own.createTopic(in, 4);
            own.createTopic(out, 3);
            List<String> produced = own.produceIds(in, 10_000, "rs", 300);
            Recorder routed = new Recorder();
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("kafka-fetch:" + in + "?brokers=" + cluster.bootstrapServers() + "&groupId=" + group
                         + "&autoOffsetReset=earliest&autoCommitIntervalMs=200&clientId=restart&transacted=true"
                         + "&maxConcurrency=64&ordering=KEY&maxPollRecords=200&maxInFlightRecords=2000"
                         + "&transactionTimeoutMs=10000").routeId("p")
                            .process(routed).process(e -> Thread.sleep(20)).to("kafka-fetch:" + out);
                }
            });
            awaitCount(routed, 1500, Duration.ofSeconds(30));
            cluster.stopBroker(0);
            int routedAtStop = routed.ids().size();
            cluster.startBroker(0);

            Map<TopicPartition, Long> end = own.endOffsets(in);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> own.committedOffsets(group, in).equals(end));
            TxSnapshot tx = ((KafkaFetchConsumer) context.getRoute("p").getConsumer()).tasks().get(0)
                    .transactions();
            OutputCheck output = OutputCheck.readCommitted(cluster.bootstrapServers(), out, produced);
            System.out.printf(
                    "tx-restart: ids=%d routedAtStop=%d routed=%d routedTwice=%d output %s, transactions %s%n",
                    produced.size(), routedAtStop, routed.count(), routed.duplicates().size(), output, tx);
            assertThat(routedAtStop).as("the broker stopped mid-stream").isLessThan(produced.size());
            assertThat(output.lost()).as("lost").isEmpty();
            assertThat(output.duplicates()).as("duplicates in the output (read_committed)").isZero();
            context.stop();
        }
    }
}
