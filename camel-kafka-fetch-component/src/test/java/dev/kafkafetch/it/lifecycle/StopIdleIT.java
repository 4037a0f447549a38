package dev.kafkafetch.it.lifecycle;

import java.time.Duration;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Stopping an idle route does not wait for the poll timeout: the fetch thread is woken up. */
class StopIdleIT extends KafkaFetchITSupport {

    @Test
    void idleRouteStopsWellUnderPollTimeout() throws Exception {
        String topic = KafkaTestSupport.uniqueName("idle");
        kafka.createTopic(topic, 1);
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "pollTimeoutMs=10000")).routeId("r")
                        .log("${body}");
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.taskSnapshots().get(0).partitions().size() == 1);
        Thread.sleep(300); // now inside a 10 s poll with nothing to fetch
        long start = System.nanoTime();
        context.getRouteController().stopRoute("r");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMs).as("stop took %d ms with pollTimeoutMs=10000", tookMs).isLessThan(3000);
    }
}
