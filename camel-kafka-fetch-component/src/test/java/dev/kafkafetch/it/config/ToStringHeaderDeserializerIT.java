package dev.kafkafetch.it.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code headerDeserializer=#class:dev.kafkafetch.serde.ToStringKafkaHeaderDeserializer} (camel-kafka 4.22's class of
 * the same name): a W3C {@code traceparent} and any other record header reach the route as text.
 */
class ToStringHeaderDeserializerIT extends KafkaFetchITSupport {

    @Test
    void traceparentReachesTheRouteAsText() throws Exception {
        String topic = KafkaTestSupport.uniqueName("hdr");
        kafka.createTopic(topic, 1);
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        kafka.produce(topic, 0, "k", "traced", Map.of("traceparent", traceparent.getBytes(StandardCharsets.UTF_8),
                "note", "größe".getBytes(StandardCharsets.UTF_8)));
        Recorder recorder = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"),
                        "headerDeserializer=#class:dev.kafkafetch.serde.ToStringKafkaHeaderDeserializer"))
                        .process(recorder);
            }
        });
        awaitCount(recorder, 1, Duration.ofSeconds(30));
        Map<String, Object> headers = recorder.all().get(0).headers();
        assertThat(headers.get("traceparent")).isEqualTo(traceparent);
        assertThat(headers.get("note")).isEqualTo("größe");
    }
}
