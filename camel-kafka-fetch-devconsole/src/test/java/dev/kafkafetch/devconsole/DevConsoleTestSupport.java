package dev.kafkafetch.devconsole;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleRegistry;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the dev console tests: the JVM's shared real broker, Kafka helpers, Camel contexts stopped after each test,
 * and the {@code kafka-fetch} console as Camel itself finds it (through the context's {@link DevConsoleRegistry}).
 * JSON output is always serialized and parsed back, so tests read exactly what a tool would read.
 */
abstract class DevConsoleTestSupport {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    protected static KafkaTestSupport kafka;
    private final List<CamelContext> contexts = new ArrayList<>();

    @BeforeAll
    static void connect() {
        kafka = new KafkaTestSupport(KAFKA.bootstrapServers());
    }

    @AfterAll
    static void disconnect() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void stopContexts() {
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
        return "kafka-fetch:" + topic + "?brokers=" + KAFKA.bootstrapServers() + "&groupId=" + group
               + "&autoOffsetReset=earliest&autoCommitIntervalMs=200&sessionTimeoutMs=6000&heartbeatIntervalMs=500"
               + (extra == null || extra.isEmpty() ? "" : "&" + extra);
    }

    protected CamelContext startContext(RouteBuilder routes) throws Exception {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(30);
        contexts.add(context);
        context.addRoutes(routes);
        context.start();
        return context;
    }

    /** The console resolved by id through Camel's dev console registry, as camel-main and the CLI do. */
    protected static DevConsole console(CamelContext context) {
        DevConsoleRegistry registry = context.getCamelContextExtension().getContextPlugin(DevConsoleRegistry.class);
        assertThat(registry).as("DevConsoleRegistry (camel-console)").isNotNull();
        DevConsole console = registry.resolveById("kafka-fetch");
        assertThat(console).as("console kafka-fetch").isInstanceOf(KafkaFetchDevConsole.class);
        return console;
    }

    protected static String text(CamelContext context, Map<String, Object> options) {
        return (String) console(context).call(DevConsole.MediaType.TEXT, options);
    }

    /** The JSON output, serialized and parsed back. */
    protected static JsonObject json(CamelContext context, Map<String, Object> options) {
        Object out = console(context).call(DevConsole.MediaType.JSON, options);
        assertThat(out).isInstanceOf(JsonObject.class);
        try {
            return (JsonObject) Jsoner.deserialize(((JsonObject) out).toJson());
        } catch (Exception e) {
            throw new AssertionError("console JSON does not parse: " + out, e);
        }
    }

    protected static List<JsonObject> routes(JsonObject json) {
        return json.getCollection("routes");
    }

    protected static JsonObject route(JsonObject json, String routeId) {
        return routes(json).stream().filter(r -> routeId.equals(r.getString("routeId"))).findFirst()
                .orElseThrow(() -> new AssertionError("route " + routeId + " not in " + json.toJson()));
    }

    protected static List<JsonObject> tasks(JsonObject route) {
        return route.getCollection("tasks");
    }

    protected static List<JsonObject> partitions(JsonObject task) {
        return task.getCollection("partitions");
    }

    protected static List<JsonObject> allPartitions(JsonObject route) {
        List<JsonObject> all = new ArrayList<>();
        tasks(route).forEach(t -> all.addAll(partitions(t)));
        return all;
    }

    protected static long sum(JsonObject route, String counter) {
        return tasks(route).stream().mapToLong(t -> t.getLong(counter)).sum();
    }
}
