package dev.kafkafetch;

import java.util.ArrayList;
import java.util.List;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Base of the broker-free option tests: starts a route from a URI in a fresh Camel context and returns why the start
 * failed. The options are checked when the route's consumer is created, before any client exists, so the brokers
 * named by {@link #NO_BROKER} are never contacted; a URI that would start anyway fails the test instead of hanging.
 */
public abstract class OptionsTestSupport {

    /** A broker address nothing listens on: a check that passes leaves a consumer that never connects. */
    protected static final String NO_BROKER = "127.0.0.1:9";

    private final List<CamelContext> contexts = new ArrayList<>();

    @AfterEach
    void stopContexts() {
        contexts.forEach(CamelContext::stop);
    }

    protected CamelContext newContext() {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(5);
        contexts.add(context);
        return context;
    }

    /** Starts a route from {@code uri}; asserts that the start fails and returns the failure. */
    protected Throwable startFailure(String uri) {
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
        return failure;
    }

    /** The messages of the failure and all its causes, joined, so an assertion finds the option wherever it is. */
    protected static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
