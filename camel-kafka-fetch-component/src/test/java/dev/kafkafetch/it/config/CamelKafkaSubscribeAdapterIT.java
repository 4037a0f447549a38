package dev.kafkafetch.it.config;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.it.TeeStream;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * camel-kafka looks a custom {@code SubscribeAdapter} up in the registry under {@code subscribeAdapter}; kafka-fetch
 * subscribes by itself. Such a bean (it may serve camel-kafka routes of the same application) is never silently
 * ignored: the route's start warns naming it, and the route consumes every record.
 */
class CamelKafkaSubscribeAdapterIT extends KafkaFetchITSupport {

    @Test
    void aSubscribeAdapterBeanIsNamedInAWarningAndEveryRecordIsConsumed() throws Exception {
        String topic = KafkaTestSupport.uniqueName("subscribe-adapter");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 40, "sa", 4);
        Recorder recorder = new Recorder();
        PrintStream originalErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(TeeStream.tee(originalErr, captured));
        try {
            CamelContext context = newContext();
            context.getRegistry().bind("subscribeAdapter", new Object());
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).routeId("with-adapter").process(recorder);
                }
            });
            context.start();
            awaitCount(recorder, produced.size(), Duration.ofSeconds(30));
        } finally {
            System.setErr(originalErr);
        }
        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("with-adapter")
                .contains("'subscribeAdapter' bean (camel-kafka's SubscribeAdapter) is not used");
    }
}
