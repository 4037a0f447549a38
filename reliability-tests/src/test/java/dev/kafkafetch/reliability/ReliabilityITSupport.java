package dev.kafkafetch.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.testinfra.KafkaBrokerExtension;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of the reliability scenarios: the JVM's shared broker, the two variants every scenario runs, kafka-fetch URIs
 * with short timings, in-process routes that record what they finished, and cleanup of everything a test started.
 */
public abstract class ReliabilityITSupport {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.shared();

    /** One record at a time per fetch task, in partition order. */
    static final String SERIAL = "maxConcurrency=1";
    /** A wide window: up to 64 records at once, one at a time per key. */
    static final String PARALLEL = "maxConcurrency=64&ordering=KEY";

    static final int MAX_POLL_RECORDS = 100;
    static final int MAX_IN_FLIGHT = 500;
    static final int COMMIT_INTERVAL_MS = 200;
    /** Distinct keys, so that KEY ordering has more lanes than maxConcurrency. */
    static final int KEYS = 128;

    protected static KafkaTestSupport kafka;
    private final List<CamelContext> contexts = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void connect() {
        kafka = new KafkaTestSupport(KAFKA.bootstrapServers());
    }

    @AfterAll
    static void disconnect() {
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
    }

    @AfterEach
    void cleanup() {
        for (CamelContext context : contexts) {
            try {
                context.stop();
            } catch (Exception e) {
                // best effort
            }
        }
        contexts.clear();
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        closeables.clear();
    }

    protected <T extends AutoCloseable> T closeLater(T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    /**
     * A kafka-fetch URI with the suite's timings: fast commits, short sessions, the variant's window options and
     * {@code maxPollRecords}/{@code maxInFlightRecords} fixed so duplicate bounds can be computed; then
     * {@code -Dreliability.uriOptions=a=1&b=2}, to run a scenario with other options (e.g. to compare commit timings).
     */
    static String uri(String bootstrap, String topic, String group, String variant, String extra) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("brokers", bootstrap);
        options.put("groupId", group);
        options.put("autoOffsetReset", "earliest");
        options.put("autoCommitIntervalMs", Integer.toString(COMMIT_INTERVAL_MS));
        options.put("sessionTimeoutMs", "6000");
        options.put("heartbeatIntervalMs", "500");
        options.put("maxPollRecords", Integer.toString(MAX_POLL_RECORDS));
        options.put("maxInFlightRecords", Integer.toString(MAX_IN_FLIGHT));
        put(options, variant);
        put(options, extra);
        put(options, System.getProperty("reliability.uriOptions")); // e.g. camel-kafka's commit timing, to compare
        StringBuilder sb = new StringBuilder("kafka-fetch:").append(topic);
        char sep = '?';
        for (Map.Entry<String, String> e : options.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }

    private static void put(Map<String, String> options, String pairs) {
        if (pairs == null || pairs.isEmpty()) {
            return;
        }
        for (String pair : pairs.split("&")) {
            int eq = pair.indexOf('=');
            options.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
    }

    static int maxConcurrency(String variant) {
        for (String pair : variant.split("&")) {
            if (pair.startsWith("maxConcurrency=")) {
                return Integer.parseInt(pair.substring("maxConcurrency=".length()));
            }
        }
        return 1;
    }

    /** What the route sleeps per record: a little, so that records are really in flight when a fault hits. */
    static int routeSleepMs(String variant) {
        return maxConcurrency(variant) == 1 ? 1 : 5;
    }

    /** Starts a CamelContext with one route: sleep {@code sleepMs}, then record the id as finished. */
    protected CamelContext startRoute(String routeId, String uri, int sleepMs, Finished finished) throws Exception {
        CamelContext context = newContext();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(routeId).process(e -> {
                    if (sleepMs > 0) {
                        Thread.sleep(sleepMs);
                    }
                }).process(finished);
            }
        });
        context.start();
        return context;
    }

    protected CamelContext newContext() {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(30);
        contexts.add(context);
        return context;
    }

    /** The fetch task snapshots of a kafka-fetch route, or an empty list if it is not running. */
    static List<TaskSnapshot> snapshots(CamelContext context, String routeId) {
        Route route = context.getRoute(routeId);
        if (route == null || !(route.getConsumer() instanceof KafkaFetchConsumer consumer)) {
            return List.of();
        }
        return consumer.taskSnapshots();
    }

    /** Polls {@code condition} every 50 ms; true once it holds, false after {@code timeout}. */
    static boolean waitFor(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return true;
                }
            } catch (RuntimeException e) {
                // not yet
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
    }

    /** Waits until the route finished every produced id; the verdict (not this) fails the test if some are missing. */
    static boolean awaitAll(Finished finished, Set<String> produced, Duration timeout) throws InterruptedException {
        return waitFor(timeout, () -> finished.containsAll(produced));
    }

    /** Committed offsets of the group vs the end offsets of the topic, for diagnostics. */
    static String offsets(KafkaTestSupport k, String group, String topic) {
        try {
            return "  committed " + k.committedOffsets(group, topic) + "\n  end       " + k.endOffsets(topic) + "\n";
        } catch (RuntimeException e) {
            return "  offsets unavailable: " + e + "\n";
        }
    }

    static void sleep(long ms) throws InterruptedException {
        Thread.sleep(ms);
    }
}
