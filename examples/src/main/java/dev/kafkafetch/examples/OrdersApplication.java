package dev.kafkafetch.examples;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.metrics.ConsumerMeters;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;
import org.apache.camel.main.SimpleMainShutdownStrategy;
import org.apache.kafka.common.utils.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kafka-fetch example: a camel-main application whose {@code billing} route (YAML DSL,
 * {@code routes/orders.camel.yaml}) consumes the {@code orders} topic with kafka-fetch, and whose Java DSL routes
 * ({@link ExampleRoutes}) produce sample orders and read the dead-letter topic.
 * <p>
 * With no {@code --brokers} it first starts an embedded single-node KRaft broker on {@code localhost:9092}
 * ({@code --kafka-port}); the topics are created when missing. While it runs it logs what it consumed once per
 * second and serves the dev console, health checks and Prometheus metrics on {@code http://localhost:8080}
 * ({@code --http-port}, see {@link ConsoleHttpServer}). Ctrl-C or {@code --duration} stops it: the producer first, then the kafka-fetch routes
 * (records in the route finish and their offsets are committed), then the HTTP server and the broker.
 * <p>
 * In-process use (tests): {@link #start(ExampleOptions)} returns the running application; {@link #close()} stops it.
 */
public final class OrdersApplication implements AutoCloseable {

    static {
        // Run with `mvn -q ... exec:java`, Maven sets org.slf4j.simpleLogger.defaultLogLevel=error for itself, which
        // would hide the example's own output (slf4j-simple reads it before simplelogger.properties).
        String level = System.getProperty("example.log.level");
        String current = System.getProperty("org.slf4j.simpleLogger.defaultLogLevel");
        if (level != null || current == null || current.equals("error")) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level != null ? level : "info");
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(OrdersApplication.class);

    public static final String BILLING_GROUP = "billing";

    private final ExampleOptions options;
    private final OrderGenerator generator;
    private final BillingProcessor billing;
    private final DeadLetterAudit audit = new DeadLetterAudit();
    /** Every kafka-fetch route registers its meters here (it is in the Camel registry), served at /q/metrics. */
    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final List<Runnable> brokerCleanup = new CopyOnWriteArrayList<>();
    private EmbeddedKafkaCluster broker;
    private String brokers;
    private Main main;
    private ConsoleHttpServer http;
    private ConsumptionReporter reporter;
    private String topic;
    private boolean closing;
    private volatile StopSummary summary;

    /**
     * What the example saw when it stopped.
     *
     * @param produced        sample orders produced
     * @param finishedAtStop  records the billing route had finished when the stop began, from orders and from its
     *                        retry topics
     * @param retriedAtStop   of those, records it had sent to a retry topic (finished on orders, routed again later)
     * @param deadLetters     dead letters read by the dead-letters route
     * @param committed       sum over the orders partitions of the billing group's committed offsets, after the stop
     * @param endOffsets      sum of the orders partitions' end offsets, after the stop
     */
    public record StopSummary(long produced, long finishedAtStop, long retriedAtStop, long deadLetters, long committed,
            long endOffsets) {
    }

    private OrdersApplication(ExampleOptions options) {
        this.options = options;
        this.generator = new OrderGenerator(options.rate());
        this.billing = new BillingProcessor(2, 20, options.stuckOrder());
    }

    public static void main(String[] args) throws Exception {
        ExampleOptions options;
        try {
            options = ExampleOptions.parse(args, System.getProperties());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            if (args != null && List.of(args).stream().anyMatch(a -> a.equals("--help") || a.equals("-h"))) {
                return;
            }
            throw e;
        }
        OrdersApplication app = start(options);
        Thread hook = new Thread(app::close, "kafka-fetch-example-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (options.durationSeconds() > 0) {
            if (!app.awaitClosed(options.durationSeconds(), TimeUnit.SECONDS)) {
                LOG.info("--duration {} s reached", options.durationSeconds());
                app.close();
            }
        } else {
            app.awaitClosed(Long.MAX_VALUE, TimeUnit.DAYS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down (Ctrl-C): the hook is what closed the application
        }
    }

    /** Starts the broker (unless brokers are given), the Camel application and the HTTP server. */
    public static OrdersApplication start(ExampleOptions options) throws Exception {
        OrdersApplication app = new OrdersApplication(options);
        try {
            app.doStart();
            return app;
        } catch (Exception | Error e) {
            app.close();
            throw e;
        }
    }

    private void doStart() throws Exception {
        long t0 = System.nanoTime();
        if (options.embeddedBroker()) {
            LOG.info("No brokers configured: starting an embedded Kafka broker on localhost:{}", options.kafkaPort());
            if (!portFree(options.kafkaPort())) {
                throw new IllegalStateException(
                        "Port " + options.kafkaPort() + " is in use, so the embedded Kafka broker"
                                                + " cannot start: try --kafka-port <port>, or --brokers host:port to"
                                                + " use a running cluster");
            }
            // Kafka's test kit registers JVM shutdown hooks that delete the broker's data directories; on Ctrl-C they
            // would run while the broker is still shutting down (and log storage errors). Keep them, and run them
            // ourselves once the broker is closed.
            Exit.setShutdownHookAdder((name, hook) -> brokerCleanup.add(hook));
            try {
                broker = EmbeddedKafkaCluster.builder().fixedPort(options.kafkaPort()).start();
            } catch (RuntimeException e) {
                throw new IllegalStateException("Could not start the embedded Kafka broker on port "
                                                + options.kafkaPort() + " (is the port in use? try --kafka-port <port>,"
                                                + " or --brokers host:port for an existing cluster): " + e.getMessage(),
                        e);
            } finally {
                Exit.resetShutdownHookAdder();
            }
            brokers = broker.bootstrapServers();
        } else {
            brokers = options.brokers();
            LOG.info("Using the Kafka cluster at {} (no embedded broker)", brokers);
        }

        main = new Main();
        // no JVM shutdown hook from camel-main: ours stops Camel, then the HTTP server, then the broker
        main.setShutdownStrategy(new SimpleMainShutdownStrategy());
        main.addOverrideProperty("kafka.brokers", brokers);
        main.bind("billing", billing);
        if (options.operatorActions()) {
            // every kafka-fetch route takes operator actions: the page's buttons, POST /kafka-fetch/actions/...
            main.addOverrideProperty("camel.component.kafka-fetch.operatorActions", "true");
        }
        main.bind(ConsumerMeters.REGISTRY_NAME, meters);
        main.configure().addRoutesBuilder(new ExampleRouteConfiguration());
        main.configure().addRoutesBuilder(new ExampleRoutes(options.rate(), generator, audit));
        main.init(); // reads application.properties, so the topic names are known before the routes start
        CamelContext context = main.getCamelContext();
        topic = context.resolvePropertyPlaceholders("{{example.topic}}");
        String deadLetterTopic = context.resolvePropertyPlaceholders("{{example.deadLetterTopic}}");
        try (KafkaAdmin admin = new KafkaAdmin(brokers)) {
            List<String> created = admin.createMissingTopics(List.of(topic, deadLetterTopic), options.partitions(),
                    options.embeddedBroker());
            if (!created.isEmpty()) {
                LOG.info("Created topics {} with {} partitions", created, options.partitions());
            }
        }

        main.start();
        reporter = new ConsumptionReporter(context, generator::generated);
        reporter.start(1000);
        try {
            http = ConsoleHttpServer.start(context, options.httpPort(), meters::scrape);
        } catch (BindException e) {
            throw new IllegalStateException("HTTP port " + options.httpPort() + " is in use: try --http-port <port>",
                    e);
        }
        LOG.info("""
                kafka-fetch example started in {} ms
                  Kafka:       {}{}
                  producing:   {} orders/s to {}
                  page:        {}/kafka-fetch   (operator actions {})
                  dev console: {}/q/dev/kafka-fetch   (JSON: ?format=json)
                  health:      {}/q/health
                  metrics:     {}/q/metrics   (Prometheus)
                  stop:        Ctrl-C{}""", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), brokers,
                broker != null ? " (embedded broker)" : "", options.rate(), topic, http.baseUrl(),
                options.operatorActions() ? "on" : "off: --operator-actions true enables them", http.baseUrl(),
                http.baseUrl(),
                http.baseUrl(),
                options.durationSeconds() > 0 ? " (or after " + options.durationSeconds() + " s)" : "");
    }

    /**
     * Stops everything, in order: the sample producer, the Camel routes (kafka-fetch lets records already in the
     * route finish, commits what finished, and leaves its group), the HTTP server, the embedded broker. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                awaitClosedQuietly();
                return;
            }
            closing = true;
        }
        try {
            if (main != null && main.getCamelContext() != null && main.getCamelContext().isStarted()) {
                LOG.info("Stopping the kafka-fetch example");
                main.getCamelContext().getRouteController().stopRoute(ExampleRoutes.PRODUCER_ROUTE);
            }
        } catch (Exception e) {
            LOG.warn("Could not stop the producer route: {}", e.toString());
        }
        billing.release(); // a stuck order (--stuck-order) returns, so the stop does not wait for it
        List<ConsumptionReporter.RouteTotals> totals = List.of();
        if (reporter != null) {
            reporter.close();
            reporter.report();
            totals = reporter.totals();
        }
        if (main != null) {
            try {
                main.stop();
            } catch (Exception e) {
                LOG.warn("Error stopping Camel: {}", e.toString());
            }
        }
        if (http != null) {
            http.close();
        }
        meters.close();
        if (brokers != null && topic != null && main != null) {
            logSummary(totals);
        }
        if (broker != null) {
            broker.close();
        }
        brokerCleanup.forEach(hook -> {
            try {
                hook.run();
            } catch (RuntimeException e) {
                LOG.debug("Cleanup of the embedded broker's files failed", e);
            }
        });
        closed.countDown();
    }

    private void logSummary(List<ConsumptionReporter.RouteTotals> beforeStop) {
        try (KafkaAdmin admin = new KafkaAdmin(brokers)) {
            long[] billing = admin.committedAndEnd(BILLING_GROUP, topic);
            List<ConsumptionReporter.RouteTotals> ofBilling = beforeStop.stream()
                    .filter(t -> t.routeId().equals(ExampleRoutes.BILLING_ROUTE)).toList();
            long finished = ofBilling.stream().mapToLong(ConsumptionReporter.RouteTotals::finished).sum();
            long retried = ofBilling.stream().mapToLong(ConsumptionReporter.RouteTotals::retried).sum();
            summary = new StopSummary(generator.generated(), finished, retried, audit.seen(), billing[0], billing[1]);
            LOG.info("Stopped. Produced {} orders; billing finished {} while running (dead letters read: {});"
                     + " group {} has committed {} of the {} records in {}",
                    generator.generated(), finished,
                    audit.seen(), BILLING_GROUP, billing[0], billing[1], topic);
        } catch (Exception e) {
            LOG.warn("Could not read the committed offsets: {}", e.toString());
        }
    }

    private static boolean portFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("localhost", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits until {@link #close()} has finished; true if it did within the timeout. */
    public boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    private void awaitClosedQuietly() {
        try {
            closed.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the example saw when it stopped (null before {@link #close()}, or if the offsets could not be read). */
    public StopSummary stopSummary() {
        return summary;
    }

    /** The bootstrap servers in use (embedded or configured). */
    public String brokers() {
        return brokers;
    }

    /** The Camel context (started once {@link #start} returned). */
    public CamelContext camelContext() {
        return main.getCamelContext();
    }

    /** The HTTP port of the console and health endpoints. */
    public int httpPort() {
        return http.port();
    }

    /** Records finished so far by the kafka-fetch route {@code routeId}. */
    public long finished(String routeId) {
        return reporter == null ? 0 : reporter.finished(routeId);
    }

    /** Sample orders produced so far. */
    public long produced() {
        return generator.generated();
    }

    /** Dead letters with reason {@code parked} read by the dead-letters route so far. */
    public long parkedLettersSeen() {
        return audit.parked();
    }

    /** Dead letters read by the dead-letters route so far. */
    public long deadLettersSeen() {
        return audit.seen();
    }
}
