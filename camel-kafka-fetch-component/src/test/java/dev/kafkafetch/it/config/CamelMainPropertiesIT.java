package dev.kafkafetch.it.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchComponent;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A camel-main application configures kafka-fetch only through {@code camel.component.kafka-fetch.*} properties (the
 * route URI names nothing but the topic): brokers, group, offset reset and concurrency reach the consumer, every record
 * is processed once, and the group's committed offsets reach the end of the topic.
 */
class CamelMainPropertiesIT extends KafkaFetchITSupport {

    @Test
    void routeUsesOnlyComponentPropertiesAndConsumesEverything() throws Exception {
        String topic = KafkaTestSupport.uniqueName("main");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        List<String> produced = kafka.produceIds(topic, 200, "m", 10);
        Recorder recorder = new Recorder();

        Main main = new Main();
        main.addInitialProperty("camel.component.kafka-fetch.brokers", KAFKA.bootstrapServers());
        main.addInitialProperty("camel.component.kafka-fetch.group-id", group);
        main.addInitialProperty("camel.component.kafka-fetch.auto-offset-reset", "earliest");
        main.addInitialProperty("camel.component.kafka-fetch.max-concurrency", "4");
        main.addInitialProperty("camel.component.kafka-fetch.auto-commit-interval-ms", "200");
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("kafka-fetch:" + topic).routeId("main-route").process(recorder);
            }
        });
        main.start();
        try {
            KafkaFetchComponent component = main.getCamelContext().getComponent("kafka-fetch",
                    KafkaFetchComponent.class);
            assertThat(component.getConfiguration().getMaxConcurrency()).isEqualTo(4);

            await().atMost(Duration.ofSeconds(60)).until(() -> recorder.ids().size() >= produced.size());
            assertThat(recorder.lost(produced)).isEmpty();
            assertThat(recorder.duplicates()).isEmpty();

            Map<TopicPartition, Long> end = kafka.endOffsets(topic);
            await().atMost(Duration.ofSeconds(30)).until(() -> kafka.committedOffsets(group, topic).equals(end));
        } finally {
            main.stop();
        }
    }
}
