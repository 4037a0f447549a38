package dev.kafkafetch.it.error;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A record that cannot be deserialized, in the middle of a partition: every other record of every partition is
 * delivered exactly once, and the bad one reaches the route's error handler with its raw bytes (header
 * CamelKafkaFetchRawValue: Camel's bridge error handler replaces the body with a message), partition and offset.
 */
class DeserializationErrorIT extends KafkaFetchITSupport {

    @Test
    void badRecordReachesTheErrorHandlerWithItsRawBytes() throws Exception {
        String topic = KafkaTestSupport.uniqueName("deser");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 2);
        for (int i = 0; i < 60; i++) {
            kafka.produceBytes(topic, i % 2, null, ByteBuffer.allocate(4).putInt(i).array());
            if (i == 30) {
                kafka.produceBytes(topic, 1, null, new byte[] { 9, 9, 9 });
            }
        }
        List<Integer> good = Collections.synchronizedList(new ArrayList<>());
        List<Object[]> bad = Collections.synchronizedList(new ArrayList<>());
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true).process(e -> bad.add(new Object[] {
                    e.getMessage().getHeader(KafkaFetchConstants.RAW_VALUE, byte[].class),
                    e.getMessage().getHeader(KafkaFetchConstants.PARTITION),
                    e.getMessage().getHeader(KafkaFetchConstants.OFFSET),
                    e.getMessage().getHeader(KafkaFetchConstants.DESERIALIZATION_ERROR) }));
                from(uri(topic, group, "valueDeserializer=org.apache.kafka.common.serialization.IntegerDeserializer"
                                       + "&bridgeErrorHandler=true&pollOnError=ERROR_HANDLER"))
                        .process(e -> good.add(e.getMessage().getBody(Integer.class)));
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> good.size() >= 60 && bad.size() >= 1);
        Thread.sleep(300);
        assertThat(good).hasSize(60).doesNotHaveDuplicates();
        assertThat(bad).hasSize(1);
        assertThat((byte[]) bad.get(0)[0]).containsExactly(9, 9, 9);
        assertThat(bad.get(0)[1]).isEqualTo(1);
        assertThat(bad.get(0)[2]).isEqualTo(15L); // after the 15 odd records 1..29
        assertThat(bad.get(0)[3]).isInstanceOf(Exception.class);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }
}
