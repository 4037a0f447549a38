package dev.kafkafetch.examples;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleRegistry;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.util.URISupport;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves Camel's dev consoles and health checks on localhost with the JDK's own HTTP server.
 * <ul>
 *   <li>{@code /q/dev/kafka-fetch} the kafka-fetch dev console as text; {@code ?format=json} as JSON. Other query
 *       parameters are passed to the console as options. When the console module is not on the classpath the fetch
 *       task snapshots are rendered here instead (same data, simpler layout).</li>
 *   <li>{@code /q/dev} the ids of the available consoles; {@code /q/dev/<id>} any of them (e.g. {@code context},
 *       {@code route}).</li>
 *   <li>{@code /q/health} every Camel health check as JSON: overall {@code UP} or {@code DOWN} (HTTP 200 or 503) and
 *       each check; {@code /q/health/ready} and {@code /q/health/live} only the readiness or liveness checks.</li>
 *   <li>{@code /q/metrics} the Micrometer meters in Prometheus' text format (a Prometheus scrape URL): the fetch
 *       tasks' {@code kafka_fetch_*} meters.</li>
 *   <li>{@code /kafka-fetch} a page showing the console's JSON per task and partition, with buttons for the operator
 *       actions ({@link KafkaFetchPage}); {@code POST /kafka-fetch/actions/<name>} carries one out
 *       ({@link OperatorActionsHttp}), {@code GET /kafka-fetch/actions} lists them;
 *       {@code GET /kafka-fetch/dead-letters} lists a route's dead letters ({@link DeadLettersHttp}).</li>
 * </ul>
 * It listens on the loopback address only. The dev console stays read-only: Camel reads dev consoles with GET and
 * passes their options as query parameters, so an action there would be a GET that changes state.
 */
public final class ConsoleHttpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHttpServer.class);

    public static final String KAFKA_FETCH_CONSOLE = "kafka-fetch";

    /** Prometheus' text exposition format, version 0.0.4. */
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4";

    private final CamelContext context;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Supplier<String> metrics;

    private ConsoleHttpServer(CamelContext context, HttpServer server, ExecutorService executor,
                              Supplier<String> metrics) {
        this.context = context;
        this.server = server;
        this.executor = executor;
        this.metrics = metrics;
    }

    /**
     * Starts serving on {@code localhost:port} (0 = a free port).
     *
     * @param metrics what {@code /q/metrics} serves: a Prometheus registry's scrape
     */
    public static ConsoleHttpServer start(CamelContext context, int port, Supplier<String> metrics)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "kafka-fetch-example-http");
            t.setDaemon(true);
            return t;
        });
        ConsoleHttpServer s = new ConsoleHttpServer(context, server, executor, metrics);
        server.createContext("/q/dev", s::devConsole);
        server.createContext("/q/health", s::health);
        server.createContext("/q/metrics", s::metrics);
        int bound = server.getAddress().getPort();
        ActionRequestGuard guard = new ActionRequestGuard();
        server.createContext(KafkaFetchPage.PATH, new KafkaFetchPage(guard, bound)::handle);
        server.createContext(OperatorActionsHttp.PATH, new OperatorActionsHttp(context, guard, bound)::handle);
        server.createContext(DeadLettersHttp.PATH, new DeadLettersHttp(context, guard, bound)::handle);
        server.createContext("/", s::index);
        server.setExecutor(executor);
        server.start();
        return s;
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://localhost:" + port();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------------------------------------------- handlers

    private void index(HttpExchange http) throws IOException {
        if (!http.getRequestURI().getPath().equals("/")) {
            send(http, 404, "text/plain", "Not found. Try /kafka-fetch, /q/dev/kafka-fetch, /q/health or /q/metrics\n");
            return;
        }
        send(http, 200, "text/plain", """
                kafka-fetch example
                  /kafka-fetch                     a page: tasks, partitions, lag and rate, stuck records, actions
                  /q/dev/kafka-fetch               the kafka-fetch dev console (fetch tasks, partitions, offsets, lag)
                  /q/dev/kafka-fetch?format=json   the same as JSON
                  /q/dev                           the other dev consoles
                  /q/health                        Camel health checks (also /q/health/ready, /q/health/live)
                  /q/metrics                       Micrometer meters for Prometheus (kafka_fetch_*)
                """);
    }

    private void devConsole(HttpExchange http) throws IOException {
        try {
            Map<String, Object> options = query(http);
            boolean json = "json".equalsIgnoreCase(String.valueOf(options.getOrDefault("format", "text")));
            String path = http.getRequestURI().getPath();
            String id = path.length() > "/q/dev/".length() ? path.substring("/q/dev/".length()) : "";
            if (id.endsWith("/")) {
                id = id.substring(0, id.length() - 1);
            }
            if (id.isEmpty()) {
                listConsoles(http, json);
                return;
            }
            DevConsole console = resolve(id);
            if (console == null && KAFKA_FETCH_CONSOLE.equals(id)) {
                Object body = json ? fallbackJson() : fallbackText();
                send(http, 200, json ? "application/json" : "text/plain", render(body));
                return;
            }
            if (console == null) {
                send(http, 404, "text/plain", "No dev console with id " + id + "\n");
                return;
            }
            DevConsole.MediaType type = json ? DevConsole.MediaType.JSON : DevConsole.MediaType.TEXT;
            if (!console.supportMediaType(type)) {
                send(http, 406, "text/plain", "Console " + id + " does not support " + type + "\n");
                return;
            }
            Object body = console.call(type, options);
            send(http, 200, json ? "application/json" : "text/plain", render(body));
        } catch (Exception e) {
            LOG.warn("Dev console request {} failed", http.getRequestURI(), e);
            send(http, 500, "text/plain", "Error: " + e + "\n");
        }
    }

    private void health(HttpExchange http) throws IOException {
        try {
            String path = http.getRequestURI().getPath();
            Collection<HealthCheck.Result> results;
            if (path.endsWith("/ready")) {
                results = HealthCheckHelper.invokeReadiness(context);
            } else if (path.endsWith("/live")) {
                results = HealthCheckHelper.invokeLiveness(context);
            } else if (path.equals("/q/health") || path.equals("/q/health/")) {
                results = HealthCheckHelper.invoke(context);
            } else {
                send(http, 404, "text/plain", "Not found. Try /q/health, /q/health/ready or /q/health/live\n");
                return;
            }
            JsonObject json = healthJson(results);
            send(http, "UP".equals(json.get("status")) ? 200 : 503, "application/json", json.toJson());
        } catch (Exception e) {
            LOG.warn("Health request {} failed", http.getRequestURI(), e);
            send(http, 500, "text/plain", "Error: " + e + "\n");
        }
    }

    private void metrics(HttpExchange http) throws IOException {
        String path = http.getRequestURI().getPath();
        if (!path.equals("/q/metrics") && !path.equals("/q/metrics/")) {
            send(http, 404, "text/plain", "Not found. Try /q/metrics\n");
            return;
        }
        try {
            send(http, 200, PROMETHEUS_TEXT, metrics.get());
        } catch (RuntimeException e) {
            LOG.warn("Metrics request {} failed", http.getRequestURI(), e);
            send(http, 500, "text/plain", "Error: " + e + "\n");
        }
    }

    // ---------------------------------------------------------------------------------------------------- helpers

    private DevConsole resolve(String id) {
        DevConsoleRegistry registry = DevConsoleRegistry.get(context);
        if (registry == null || !registry.isEnabled()) {
            return null;
        }
        return registry.resolveById(id);
    }

    private void listConsoles(HttpExchange http, boolean json) throws IOException {
        DevConsoleRegistry registry = DevConsoleRegistry.get(context);
        TreeSet<String> ids = new TreeSet<>();
        if (registry != null) {
            registry.stream().map(DevConsole::getId).forEach(ids::add);
            if (registry.resolveById(KAFKA_FETCH_CONSOLE) != null) {
                ids.add(KAFKA_FETCH_CONSOLE);
            }
        }
        ids.add(KAFKA_FETCH_CONSOLE); // always served, see the fallback
        if (json) {
            JsonObject root = new JsonObject();
            root.put("consoles", new JsonArray(new ArrayList<>(ids)));
            send(http, 200, "application/json", root.toJson());
        } else {
            StringBuilder sb = new StringBuilder();
            ids.forEach(id -> sb.append("/q/dev/").append(id).append('\n'));
            send(http, 200, "text/plain", sb.toString());
        }
    }

    static JsonObject healthJson(Collection<HealthCheck.Result> results) {
        JsonArray checks = new JsonArray();
        boolean up = true;
        for (HealthCheck.Result r : results) {
            JsonObject check = new JsonObject();
            check.put("id", r.getCheck().getId());
            check.put("group", r.getCheck().getGroup());
            check.put("status", r.getState().name());
            check.put("readiness", r.getCheck().isReadiness());
            check.put("liveness", r.getCheck().isLiveness());
            r.getMessage().ifPresent(m -> check.put("message", m));
            r.getError().ifPresent(e -> check.put("error", e.toString()));
            JsonObject details = new JsonObject();
            r.getDetails().forEach((k, v) -> details.put(k, jsonValue(v)));
            if (!details.isEmpty()) {
                check.put("details", details);
            }
            checks.add(check);
            up &= r.getState() == HealthCheck.State.UP;
        }
        JsonObject root = new JsonObject();
        root.put("status", up ? "UP" : "DOWN");
        root.put("checks", checks);
        return root;
    }

    /** The kafka-fetch console's data without the console module: every task snapshot of every kafka-fetch route. */
    JsonObject fallbackJson() {
        JsonArray routes = new JsonArray();
        for (Route route : context.getRoutes()) {
            if (route.getConsumer() instanceof KafkaFetchConsumer consumer) {
                JsonObject r = new JsonObject();
                r.put("routeId", route.getRouteId());
                r.put("endpointUri", URISupport.sanitizeUri(route.getEndpoint().getEndpointUri()));
                JsonArray tasks = new JsonArray();
                consumer.taskSnapshots().forEach(s -> tasks.add(recordJson(s)));
                r.put("tasks", tasks);
                routes.add(r);
            }
        }
        JsonObject root = new JsonObject();
        root.put("console", "fallback: the camel-kafka-fetch-devconsole module is not on the classpath");
        root.put("routes", routes);
        return root;
    }

    String fallbackText() {
        StringBuilder sb = new StringBuilder();
        sb.append("kafka-fetch (fallback view: the camel-kafka-fetch-devconsole module is not on the classpath)\n");
        for (Route route : context.getRoutes()) {
            if (route.getConsumer() instanceof KafkaFetchConsumer consumer) {
                sb.append("\nRoute ").append(route.getRouteId()).append(": ")
                        .append(URISupport.sanitizeUri(route.getEndpoint().getEndpointUri())).append('\n');
                for (TaskSnapshot s : consumer.taskSnapshots()) {
                    sb.append(String.format("  %s  %s  group=%s member=%s generation=%d%n", s.threadName(),
                            s.state(), s.groupId(), s.memberId(), s.generation()));
                    sb.append(String.format("    polled=%d finished=%d failed=%d dead-lettered=%d stalled=%d"
                                            + " rate=%.1f/s%n",
                            s.recordsPolled(), s.recordsFinished(),
                            s.recordsFailed(), s.recordsDeadLettered(), s.recordsStalled(), s.recordsPerSecond()));
                    sb.append(String.format("    in-flight=%d/%d running=%d/%d queued=%d commits=%d"
                                            + " commit-failures=%d rebalances=%d%n",
                            s.inFlight(),
                            s.maxInFlightRecords(), s.running(), s.maxConcurrency(), s.queued(), s.commits(),
                            s.commitFailures(), s.rebalances()));
                    if (s.lastError() != null) {
                        sb.append("    last error: ").append(s.lastError()).append('\n');
                    }
                    s.partitions().forEach(p -> sb.append(String.format(
                            "    %s-%d position=%d committed=%d committable=%d end=%d lag=%d in-flight=%d%s%n",
                            p.topic(), p.partition(), p.position(), p.committed(), p.committable(), p.endOffset(),
                            p.lag(), p.inFlight(), p.paused() ? " paused(" + p.pausedReason() + ")" : "")));
                }
            }
        }
        return sb.toString();
    }

    private static JsonObject recordJson(Record record) {
        JsonObject o = new JsonObject();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            try {
                o.put(c.getName(), jsonValue(c.getAccessor().invoke(record)));
            } catch (ReflectiveOperationException e) {
                o.put(c.getName(), e.toString());
            }
        }
        return o;
    }

    private static Object jsonValue(Object v) {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Record r) {
            return recordJson(r);
        }
        if (v instanceof Collection<?> c) {
            JsonArray a = new JsonArray();
            c.forEach(e -> a.add(jsonValue(e)));
            return a;
        }
        if (v instanceof Optional<?> opt) {
            return opt.map(ConsoleHttpServer::jsonValue).orElse(null);
        }
        return v.toString();
    }

    private static String render(Object body) {
        if (body instanceof JsonObject json) {
            return json.toJson();
        }
        return body == null ? "" : body.toString();
    }

    private static Map<String, Object> query(HttpExchange http) {
        return new LinkedHashMap<>(HttpResponses.query(http.getRequestURI().getRawQuery()));
    }

    private static void send(HttpExchange http, int status, String contentType, String body) throws IOException {
        HttpResponses.send(http, status, contentType, body);
    }
}
