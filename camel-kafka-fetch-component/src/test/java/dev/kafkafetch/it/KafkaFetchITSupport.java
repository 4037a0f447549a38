package dev.kafkafetch.it;

import java.time.Duration;

import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.awaitility.Awaitility.await;

/** Base of the integration tests: the JVM's shared real broker, Kafka helpers, and Camel contexts closed after each test. */
public abstract class KafkaFetchITSupport {

    @RegisterExtension
    public static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    protected static KafkaTestSupport kafka;
    private final java.util.List<CamelContext> contexts = new java.util.ArrayList<>();

    @BeforeAll
    public static void connect() {
        kafka = new KafkaTestSupport(KAFKA.bootstrapServers());
    }

    @AfterAll
    public static void disconnect() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    public void stopContexts() {
        for (CamelContext context : contexts) {
            try {
                context.stop();
            } catch (Exception e) {
                // best effort
            }
        }
        contexts.clear();
    }

    /** A kafka-fetch URI on the shared broker with test-friendly timings (fast commits, short session). */
    protected static String uri(String topic, String group, String extra) {
        java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        options.put("brokers", KAFKA.bootstrapServers());
        options.put("groupId", group);
        options.put("autoOffsetReset", "earliest");
        options.put("autoCommitIntervalMs", "200");
        options.put("sessionTimeoutMs", "6000");
        options.put("heartbeatIntervalMs", "500");
        if (extra != null && !extra.isEmpty()) {
            for (String pair : extra.split("&")) {
                int eq = pair.indexOf('=');
                options.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        StringBuilder sb = new StringBuilder("kafka-fetch:").append(topic);
        char sep = '?';
        for (java.util.Map.Entry<String, String> e : options.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }

    protected CamelContext startContext(RouteBuilder routes) throws Exception {
        CamelContext context = newContext();
        context.addRoutes(routes);
        context.start();
        return context;
    }

    protected CamelContext newContext() {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(30);
        contexts.add(context);
        return context;
    }

    protected static void awaitCount(Recorder recorder, int count, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> recorder.ids().size() >= count);
    }
}
