package dev.kafkafetch.it.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.metrics.OptionalMeters;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Micrometer is an optional dependency: this suite runs without it on the class path (only the observability tests
 * have it), and a route asking for per-partition meters still consumes every record, stops and starts again.
 */
class WithoutMicrometerIT extends KafkaFetchITSupport {

    @Test
    void aRouteWithMetricsOptionsConsumesWithoutMicrometerOnTheClassPath() throws Exception {
        assertThatThrownBy(() -> Class.forName("io.micrometer.core.instrument.MeterRegistry"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThat(OptionalMeters.micrometerPresent()).isFalse();

        String topic = KafkaTestSupport.uniqueName("no-micrometer");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>(kafka.produceIds(topic, 50, "a", 5));
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, group, "consumersCount=2&metricsPerPartition=true")).routeId("plain").process(recorder);
            }
        });
        awaitCount(recorder, 50, Duration.ofSeconds(30));

        context.getRouteController().stopRoute("plain");
        produced.addAll(kafka.produceIds(topic, 20, "b", 5));
        context.getRouteController().startRoute("plain");
        awaitCount(recorder, 70, Duration.ofSeconds(30));
        assertThat(recorder.lost(produced)).as("lost").isEmpty();
    }
}
