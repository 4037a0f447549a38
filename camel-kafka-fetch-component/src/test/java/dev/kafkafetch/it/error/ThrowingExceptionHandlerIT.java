package dev.kafkafetch.it.error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.it.Recorder;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.ExceptionHandler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer {@code exceptionHandler} that throws when told of a failed record does not keep that record from
 * finishing: the records after it run (one at a time, so a record stuck in its slot would hold them all), the group
 * commits to the end and nothing stays in flight. Told by the route's processor (no dead-letter topic) and by the
 * failure rules (breakOnFirstError's attempts used up).
 */
class ThrowingExceptionHandlerIT extends KafkaFetchITSupport {

    private static final long FAILS_AT = 5;

    /** Counts what it is told, then throws. */
    static final class ThrowingHandler implements ExceptionHandler {
        final AtomicInteger told = new AtomicInteger();

        @Override
        public void handleException(Throwable exception) {
            handleException(null, null, exception);
        }

        @Override
        public void handleException(String message, Throwable exception) {
            handleException(message, null, exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            told.incrementAndGet();
            throw new IllegalStateException("the exception handler fails: " + message);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "breakOnFirstError=true&breakOnFirstErrorMaxAttempts=2" })
    void aFailedRecordFinishesAlthoughTheExceptionHandlerThrows(String options) throws Exception {
        String topic = KafkaTestSupport.uniqueName("handler-throws");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(topic, 1);
        List<String> produced = kafka.produceIds(topic, 20, "ht", 5); // one partition: id-ht-n at offset n
        String failing = produced.get((int) FAILS_AT);
        ThrowingHandler handler = new ThrowingHandler();
        Recorder recorder = new Recorder();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                getContext().getRegistry().bind("throwingHandler", handler);
                from(uri(topic, group, "shutdownTimeout=5000&exceptionHandler=#throwingHandler"
                                       + (options.isEmpty() ? "" : "&" + options)))
                        .routeId("r").process(exchange -> {
                            if (failing.equals(exchange.getMessage().getBody(String.class))) {
                                throw new IllegalStateException("fails always");
                            }
                        }).process(recorder);
            }
        });
        KafkaFetchConsumer consumer = (KafkaFetchConsumer) context.getRoute("r").getConsumer();
        List<String> others = new ArrayList<>(produced);
        others.remove(failing);

        await().atMost(Duration.ofSeconds(30)).until(() -> handler.told.get() > 0);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(recorder.lost(others))
                .as("records after the failed one, never run").isEmpty());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committedOffsets(group, topic))
                .isEqualTo(kafka.endOffsets(topic)));
        assertThat(consumer.taskSnapshots().get(0).inFlight()).as("in flight").isZero();
        assertThat(recorder.duplicates()).isEmpty();
    }
}
