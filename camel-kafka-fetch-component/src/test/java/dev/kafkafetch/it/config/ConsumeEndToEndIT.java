package dev.kafkafetch.it.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Records of a 3-partition topic all reach a Java DSL route, once each, in partition order, with camel-kafka's headers. */
class ConsumeEndToEndIT extends KafkaFetchITSupport {

    @Test
    void everyRecordArrivesOnceInPartitionOrderWithHeaders() throws Exception {
        String topic = KafkaTestSupport.uniqueName("e2e");
        kafka.createTopic(topic, 3);
        List<String> produced = kafka.produceIds(topic, 3000, "a", 30);
        kafka.produce(topic, 1, "hk", "with-headers", Map.of("trace", "t-1".getBytes(StandardCharsets.UTF_8),
                "CamelShouldBeFiltered", "x".getBytes(StandardCharsets.UTF_8)));
        Recorder recorder = new Recorder();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).process(recorder);
            }
        });
        awaitCount(recorder, 3001, Duration.ofSeconds(60));

        assertThat(recorder.lost(produced)).isEmpty();
        assertThat(recorder.duplicates()).isEmpty();
        recorder.offsetsByPartition().forEach((p, offsets) -> assertThat(offsets).as("partition %d", p).isSorted());
        assertThat(recorder.offsetsByPartition()).containsOnlyKeys(0, 1, 2);

        Recorder.Seen withHeaders = recorder.all().stream().filter(s -> s.id().equals("with-headers")).findFirst()
                .orElseThrow();
        Map<String, Object> h = withHeaders.headers();
        assertThat(h.get(KafkaFetchConstants.TOPIC)).isEqualTo(topic);
        assertThat(h.get(KafkaFetchConstants.PARTITION)).isEqualTo(1);
        assertThat(h.get(KafkaFetchConstants.OFFSET)).isInstanceOf(Long.class);
        assertThat(h.get(KafkaFetchConstants.KEY)).isEqualTo("hk");
        assertThat((Long) h.get(KafkaFetchConstants.TIMESTAMP)).isPositive();
        assertThat(h.get(KafkaFetchConstants.HEADERS)).isInstanceOf(Headers.class);
        assertThat(h.get("trace")).isEqualTo("t-1".getBytes(StandardCharsets.UTF_8));
        assertThat(h).doesNotContainKey("CamelShouldBeFiltered");
    }
}
