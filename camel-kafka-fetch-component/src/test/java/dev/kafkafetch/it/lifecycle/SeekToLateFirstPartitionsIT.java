package dev.kafkafetch.it.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaClientFactory;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code seekTo} still applies when a fetch task's first rebalance brings no partitions and the next one brings the
 * route's first: the consumer protocol does this when the broker's assignment reaches a new member before the client
 * can resolve the topic's id (it reconciles the empty part first), or when the broker computes the assignment in the
 * background. Found by CI: {@code SoughtPartitionHandOverIT} once saw member A route the whole backlog despite
 * {@code seekTo=END}. The fault is injected, with each group protocol, by a client factory whose consumer reports an
 * empty assignment before the first real one, as the consumer protocol may.
 */
class SeekToLateFirstPartitionsIT extends KafkaFetchITSupport {

    @ParameterizedTest(name = "seekTo={0}, {1}")
    @CsvSource({ "END, groupProtocol=classic", "BEGINNING, groupProtocol=classic", "END, groupProtocol=consumer",
        "BEGINNING, groupProtocol=consumer" })
    void theFirstPartitionsAreSoughtWhenTheFirstRebalanceBroughtNone(String seekTo, String protocol) throws Exception {
        String topic = KafkaTestSupport.uniqueName("seek-late");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        // the group alone would start where seekTo does not: END must skip the backlog, BEGINNING must route it
        String reset = seekTo.equals("END") ? "earliest" : "latest";
        List<String> backlog = kafka.produceIds(topic, 20, "backlog", 4);
        EmptyFirstRebalance factory = new EmptyFirstRebalance();
        Recorder recorder = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("clients", factory);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "seekTo=" + seekTo + "&autoOffsetReset=" + reset + "&" + protocol)).routeId("r")
                        .process(recorder);
            }
        });
        context.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> factory.realAssignments.get() > 0);
        assertThat(factory.emptyFirst.get()).as("the premise: an empty first rebalance came first").isEqualTo(1);

        List<String> fresh = kafka.produceIds(topic, 20, "fresh", 4);
        List<String> expected = new ArrayList<>(fresh);
        if (seekTo.equals("BEGINNING")) {
            expected.addAll(backlog);
        }
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> recorder.ids().containsAll(expected));
        } catch (ConditionTimeoutException e) {
            // asserted below
        }
        if (seekTo.equals("END")) {
            assertThat(recorder.ids()).as("backlog routed (seekTo=END skips it)").doesNotContainAnyElementsOf(backlog);
        } else {
            assertThat(recorder.lost(backlog)).as("backlog lost (seekTo=BEGINNING routes it)").isEmpty();
        }
        assertThat(recorder.lost(fresh)).as("records produced after the start lost").isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
    }

    /** Its consumers report one empty assignment before their first real one, as the consumer protocol may. */
    static final class EmptyFirstRebalance implements KafkaClientFactory {
        final AtomicInteger emptyFirst = new AtomicInteger();
        final AtomicInteger realAssignments = new AtomicInteger();

        @Override
        public Consumer<byte[], byte[]> getConsumer(Properties properties) {
            return new KafkaConsumer<>(properties) {
                @Override
                public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
                    super.subscribe(topics, new ConsumerRebalanceListener() {
                        // once, before the first assignment with partitions (the real client may have made an
                        // empty call already: the protocol does this at random, which the premise must not depend on)
                        private boolean injected;

                        @Override
                        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                            listener.onPartitionsRevoked(partitions);
                        }

                        @Override
                        public void onPartitionsLost(Collection<TopicPartition> partitions) {
                            listener.onPartitionsLost(partitions);
                        }

                        @Override
                        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                            if (!injected && !partitions.isEmpty()) {
                                injected = true;
                                listener.onPartitionsAssigned(List.of());
                                emptyFirst.incrementAndGet();
                            }
                            listener.onPartitionsAssigned(partitions);
                            if (!partitions.isEmpty()) {
                                realAssignments.incrementAndGet();
                            }
                        }
                    });
                }
            };
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Properties properties) {
            return new KafkaProducer<>(properties);
        }
    }
}
