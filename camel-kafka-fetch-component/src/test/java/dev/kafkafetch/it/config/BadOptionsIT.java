package dev.kafkafetch.it.config;

import dev.kafkafetch.it.KafkaFetchITSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad input that only a broker can reveal fails the route's start with a message that names the option. Everything
 * decided from the options alone is checked without a broker in {@code BadOptionsTest} and {@code ShareBadOptionsTest}.
 */
class BadOptionsIT extends KafkaFetchITSupport {

    /** The retry topics of a new topic do not exist, and the route may not create them. */
    @Test
    void missingRetryTopicsWithoutCreateRetryTopics() {
        String uri = "kafka-fetch:t?brokers=" + KAFKA.bootstrapServers()
                     + "&groupId=g&retryDelays=1s&createRetryTopics=false";
        CamelContext context = newContext();
        Throwable failure = catchThrowable(() -> {
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri).log("${body}");
                }
            });
            context.start();
        });
        assertThat(failure).as("starting %s must fail", uri).isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable c = failure; c != null; c = c.getCause()) {
            messages.append(c.getMessage()).append(" | ");
        }
        assertThat(messages.toString()).contains("createRetryTopics");
    }
}
