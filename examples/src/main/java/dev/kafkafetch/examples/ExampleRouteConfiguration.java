package dev.kafkafetch.examples;

import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.RouteConfigurationBuilder;

/**
 * Error handling for every route of the example (YAML and Java DSL): no redelivery, and one WARN line per failed
 * exchange instead of a stack trace. A failed billing exchange is then dead-lettered by kafka-fetch, which logs where
 * it went; the dead-letters route prints it again with its provenance.
 */
public final class ExampleRouteConfiguration extends RouteConfigurationBuilder {

    @Override
    public void configuration() {
        routeConfiguration().errorHandler(defaultErrorHandler()
                .maximumRedeliveries(0)
                .loggingLevel(LoggingLevel.WARN)
                .retriesExhaustedLogLevel(LoggingLevel.WARN)
                .logStackTrace(false)
                .logExhaustedMessageHistory(false));
    }
}
