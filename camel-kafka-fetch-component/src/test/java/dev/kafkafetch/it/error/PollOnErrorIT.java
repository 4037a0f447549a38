package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The effect of each pollOnError value on a real poll error: a new group with autoOffsetReset=none makes every
 * poll() throw NoOffsetForPartitionException.
 */
class PollOnErrorIT extends KafkaFetchITSupport {

    private final List<Exception> bridged = new CopyOnWriteArrayList<>();

    private KafkaFetchConsumer start(String pollOnError) throws Exception {
        String topic = KafkaTestSupport.uniqueName("pollerr");
        kafka.createTopic(topic, 1);
        kafka.produceIds(topic, 5, "e", 1);
        CamelContext context = newContext();
        KafkaFetchComponent component = new KafkaFetchComponent();
        component.setCreateConsumerBackoffInterval(100);
        context.addComponent("kafka-fetch", component);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true)
                        .process(e -> bridged.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)));
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "autoOffsetReset=none&bridgeErrorHandler=true&pollTimeoutMs=200&pollOnError=" + pollOnError))
                        .routeId("r").log("${body}");
            }
        });
        context.start();
        return (KafkaFetchConsumer) context.getRoute("r").getConsumer();
    }

    @Test
    void errorHandlerGivesThePollErrorToTheRouteAndGoesOn() throws Exception {
        KafkaFetchConsumer consumer = start("ERROR_HANDLER");
        await().atMost(Duration.ofSeconds(20)).until(() -> bridged.size() >= 2);
        assertThat(bridged.get(0)).isInstanceOf(NoOffsetForPartitionException.class);
        assertThat(consumer.taskSnapshots().get(0).state()).isEqualTo("RUNNING");
    }

    @Test
    void discardLogsAndGoesOn() throws Exception {
        KafkaFetchConsumer consumer = start("DISCARD");
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).lastError() != null
                                                           && consumer.taskSnapshots().get(0).polls() > 0);
        long polls = consumer.taskSnapshots().get(0).polls();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).polls() > polls + 1);
        assertThat(consumer.taskSnapshots().get(0).lastError()).contains("NoOffsetForPartition");
        assertThat(consumer.taskSnapshots().get(0).state()).isEqualTo("RUNNING");
        assertThat(bridged).isEmpty();
    }

    @Test
    void retryPollsAgain() throws Exception {
        KafkaFetchConsumer consumer = start("RETRY");
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).lastError() != null);
        long polls = consumer.taskSnapshots().get(0).polls();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).polls() > polls + 1);
        assertThat(consumer.taskSnapshots().get(0).reconnects()).isZero();
        assertThat(bridged).isEmpty();
    }

    @Test
    void reconnectRecreatesTheConsumer() throws Exception {
        KafkaFetchConsumer consumer = start("RECONNECT");
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.taskSnapshots().get(0).reconnects() >= 2);
        assertThat(consumer.taskSnapshots().get(0).lastError()).contains("NoOffsetForPartition");
        assertThat(bridged).isEmpty();
    }

    @Test
    void stopTerminatesTheTask() throws Exception {
        KafkaFetchConsumer consumer = start("STOP");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> consumer.taskSnapshots().get(0).state().equals("TERMINATED"));
        assertThat(consumer.taskSnapshots().get(0).lastError()).contains("NoOffsetForPartition");
    }
}
