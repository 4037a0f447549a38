package dev.kafkafetch.it.commit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.KafkaClientFactory;
import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A manual {@code commit()} the broker refuses (here a RebalanceInProgressException, as during a cooperative
 * rebalance) fails the exchange, and the record counts as unfinished again: under breakOnFirstError it is delivered
 * again and committed then, never committed past while its exchange failed.
 */
class FailedManualCommitIT extends KafkaFetchITSupport {

    @Test
    void aRefusedManualCommitIsDeliveredAgain() throws Exception {
        String topic = KafkaTestSupport.uniqueName("refused");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 30, "r", 5);
        RefusingFactory factory = new RefusingFactory(11); // the commit of offset 10 (next offset 11) is refused once
        Recorder ok = new Recorder();
        Recorder failed = new Recorder();
        CamelContext context = newContext();
        context.getRegistry().bind("refusing", factory);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).process(failed);
                from(uri(topic, group, "kafkaClientFactory=#refusing&allowManualCommit=true&autoCommitEnable=true"
                                       + "&breakOnFirstError=true&breakOnFirstErrorMaxAttempts=3"))
                        .routeId("r")
                        .process(e -> e.getMessage().getHeader(KafkaFetchConstants.MANUAL_COMMIT,
                                KafkaManualCommit.class).commit())
                        .process(ok);
            }
        });
        context.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> ok.ids().containsAll(produced));
        assertThat(factory.refused).isTrue();
        assertThat(failed.all()).extracting(Recorder.Seen::offset).containsExactly(10L);
        assertThat(ok.ids()).containsExactlyInAnyOrderElementsOf(produced); // the record refused once succeeded later
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(Map.of(new TopicPartition(topic, 0), 30L)));
    }

    /** Plain consumers, except that one commitSync asking for {@code refusedOffset} fails once. */
    static final class RefusingFactory implements KafkaClientFactory {
        private final long refusedOffset;
        final AtomicBoolean armed = new AtomicBoolean(true);
        volatile boolean refused;

        RefusingFactory(long refusedOffset) {
            this.refusedOffset = refusedOffset;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Consumer<byte[], byte[]> getConsumer(Properties properties) {
            KafkaConsumer<byte[], byte[]> real = new KafkaConsumer<>(properties);
            return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] { Consumer.class }, (proxy, method, args) -> {
                        if ("commitSync".equals(method.getName()) && args != null && args[0] instanceof Map<?, ?> m
                            && m.values().stream().anyMatch(
                                    o -> ((OffsetAndMetadata) o).offset() == refusedOffset)
                            && armed.compareAndSet(true, false)) {
                            refused = true;
                            throw new RebalanceInProgressException("refused by the test");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Properties properties) {
            return KafkaClientFactory.DEFAULT.getProducer(properties);
        }
    }
}
