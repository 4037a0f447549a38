package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.it.DeadLetters;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Pausable EIP listener that throws does not leave its record in flight forever: the record is treated as failed
 * (dead-lettered, as a dead-letter topic is set), every other record is processed, and the task's in-flight count
 * returns to 0.
 */
class ThrowingConsumerListenerIT extends KafkaFetchITSupport {

    private static final long THROWS_AT = 10;

    /** Throws from afterProcess for the record at offset {@value #THROWS_AT}. */
    static final class ThrowingListener extends KafkaFetchConsumerListener {
        @Override
        public boolean afterProcess(ProcessingResult result) {
            if (result.offset() == THROWS_AT) {
                throw new IllegalStateException("listener fails for offset " + THROWS_AT);
            }
            return super.afterProcess(result);
        }
    }

    @Test
    void recordWhoseListenerThrowsIsHandledAsFailedAndEverythingElseIsProcessed() throws Exception {
        String topic = KafkaTestSupport.uniqueName("listener-throws");
        String dlt = topic + ".dlt";
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(dlt, 1);
        List<String> produced = kafka.produceIds(topic, 50, "lt", 5); // one partition: id-lt-n at offset n
        String failing = produced.get((int) THROWS_AT);
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // a short shutdownTimeout: today the record left in flight holds the stop for the whole of it
                from(uri(topic, group, "shutdownTimeout=5000&deadLetterTopic=" + dlt)).routeId("r")
                        .pausable(new ThrowingListener(), o -> true)
                        .process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        List<String> others = new ArrayList<>(produced);
        others.remove(failing);
        // the listener's exception must not escape to a thread (today it kills the worker): assert on the outcome
        await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                recorder.lost(others)).as("records after the failing one, never processed").isEmpty());

        List<ConsumerRecord<String, String>> dead = DeadLetters.awaitRecords(kafka, dlt, 1, Duration.ofSeconds(20));
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(failing);
        await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                consumer.taskSnapshots().get(0).inFlight()).as("in flight").isZero());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
    }
}
