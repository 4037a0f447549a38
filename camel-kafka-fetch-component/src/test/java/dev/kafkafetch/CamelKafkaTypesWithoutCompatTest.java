package dev.kafkafetch;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.kafka.consumer.errorhandler.KafkaConsumerListener;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Without camel-kafka-fetch-compat, code written against camel-kafka's types does not break silently: a camel-kafka
 * header deserializer or manual-commit factory, or camel-kafka's consumer listener for the Pausable EIP, fails the
 * route's start with a message naming the option and the kafka-fetch type to use, on both schemes.
 */
class CamelKafkaTypesWithoutCompatTest {

    private static final String BASE = "kafka-fetch:t?brokers=localhost:1&groupId=g";
    private static final String SHARE_BASE = "kafka-fetch-share:t?brokers=localhost:1&groupId=g";
    private CamelContext context;

    @BeforeEach
    void start() {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "headerDeserializer=#class:org.apache.camel.component.kafka.serde.DefaultKafkaHeaderDeserializer"
                                          + "|dev.kafkafetch.serde.KafkaHeaderDeserializer",
        "allowManualCommit=true&kafkaManualCommitFactory=#class:"
                                                                                             + "org.apache.camel.component.kafka.consumer.DefaultKafkaManualCommitFactory"
                                                                                             + "|dev.kafkafetch.commit.KafkaManualCommitFactory" })
    void aCamelKafkaTypeInAnOptionIsRefusedNamingOurs(String option, String ours) {
        Throwable failure = catchThrowable(() -> context.getEndpoint(BASE + "&" + option));
        assertThat(messages(failure)).contains(option.substring(option.lastIndexOf('&') + 1, option.indexOf('=',
                option.lastIndexOf('&') + 1)), ours, "camel-kafka-fetch-compat");
    }

    @Test
    void aCamelKafkaTypeOnAShareRouteGetsTheSameNamedMessage() {
        Throwable failure = catchThrowable(() -> context.getEndpoint(SHARE_BASE + "&headerDeserializer=#class:"
                                                                     + "org.apache.camel.component.kafka.serde"
                                                                     + ".DefaultKafkaHeaderDeserializer"));
        assertThat(messages(failure)).contains("kafka-fetch-share option headerDeserializer",
                "dev.kafkafetch.serde.KafkaHeaderDeserializer", "one of camel-kafka's types",
                "camel-kafka-fetch-compat");
    }

    @Test
    void camelKafkasConsumerListenerIsRefusedNamingOurs() {
        Throwable failure = catchThrowable(() -> context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(BASE).routeId("paused").pausable(new KafkaConsumerListener(), o -> true).log("${body}");
            }
        }));
        assertThat(messages(failure)).contains(KafkaFetchConsumerListener.class.getName(),
                "camel-kafka-fetch-compat");
    }

    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
