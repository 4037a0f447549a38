package dev.kafkafetch.it.config;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaClientFactory;
import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link KafkaClientFactory} bean is autowired into the component and sees every client the route creates: one
 * consumer per fetch task, a new one after each reconnect (a poll error injected by the wrapped consumer, with
 * pollOnError=RECONNECT), and the dead-letter producer; records go on being processed across the reconnect and the
 * poison record reaches the dead-letter topic, nothing lost.
 */
class KafkaClientFactoryIT extends KafkaFetchITSupport {

    @Test
    void aWrappingFactorySeesEveryClientReconnectsIncluded() throws Exception {
        String topic = KafkaTestSupport.uniqueName("factory");
        String dlt = topic + ".dlt";
        kafka.createTopic(topic, 2);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 300, "f", 20);
        CountingFactory factory = new CountingFactory();
        Recorder recorder = new Recorder();

        CamelContext context = newContext();
        context.getRegistry().bind("clients", factory);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "consumersCount=2&pollOnError=RECONNECT"
                                                                  + "&maxPollRecords=20&deadLetterTopic=" + dlt))
                        .process(e -> {
                            if ("id-f-150".equals(e.getMessage().getBody(String.class))) {
                                throw new IllegalStateException("poison");
                            }
                        }).process(recorder);
            }
        });
        context.getComponent("kafka-fetch", KafkaFetchComponent.class).setCreateConsumerBackoffInterval(100);
        context.start();

        assertThat(context.getComponent("kafka-fetch", KafkaFetchComponent.class).getKafkaClientFactory())
                .as("autowired from the registry").isSameAs(factory);
        // the premise: one consumer with partitions failed a poll (which of the two joins first varies under load)
        await().atMost(Duration.ofSeconds(60)).untilTrue(factory.injected);
        await().atMost(Duration.ofSeconds(60)).until(() -> recorder.ids().size() >= produced.size() - 1);
        assertThat(recorder.lost(produced)).containsExactly("id-f-150");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.readAll(dlt,
                Duration.ofSeconds(10))).extracting(ConsumerRecord::value).containsExactly("id-f-150"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(factory.consumers)
                .as("two fetch tasks, then one more after the reconnect").hasSize(3));
        assertThat(factory.producers.get()).as("the dead-letter producer").isEqualTo(1);
        assertThat(factory.consumers).allSatisfy(p -> assertThat(p).containsEntry("enable.auto.commit", "false"));
    }

    /** Counts the clients it creates; the first consumer to poll five times with partitions throws once. */
    static final class CountingFactory implements KafkaClientFactory {
        final List<Properties> consumers = new CopyOnWriteArrayList<>();
        final AtomicInteger producers = new AtomicInteger();
        final AtomicBoolean injected = new AtomicBoolean();

        @Override
        public Consumer<byte[], byte[]> getConsumer(Properties properties) {
            consumers.add(properties);
            return new KafkaConsumer<>(properties) {
                private int polls;

                @Override
                public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
                    if (!assignment().isEmpty() && ++polls == 5 && injected.compareAndSet(false, true)) {
                        throw new KafkaException("injected poll failure");
                    }
                    return super.poll(timeout);
                }
            };
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Properties properties) {
            producers.incrementAndGet();
            return new KafkaProducer<>(properties);
        }
    }
}
