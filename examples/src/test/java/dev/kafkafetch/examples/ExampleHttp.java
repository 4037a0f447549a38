package dev.kafkafetch.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

/**
 * A test's HTTP client for the example's server: GETs, action POSTs the way the page sends them (same-origin
 * {@code Origin}, the server's token), or with any headers a test wants to forge, and the console's JSON read as
 * partitions.
 */
final class ExampleHttp {

    /** One partition row of the console's JSON. */
    record Partition(String route, String task, String topic, int partition, long position, long committed,
            boolean paused, String pausedReason, JsonObject oldestUnfinished) {
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;
    private final String base;

    ExampleHttp(int port) {
        this.port = port;
        this.base = "http://localhost:" + port;
    }

    String base() {
        return base;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(40)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The token the page would send, from {@code GET /kafka-fetch/actions}. */
    String token() throws IOException, InterruptedException {
        return json(get("/kafka-fetch/actions").body()).getString("token");
    }

    /** POSTs an action as the page does: {@code Origin} of this server and its token. */
    HttpResponse<String> post(String action, Map<String, Object> params) throws IOException, InterruptedException {
        return post(action, params, Map.of("Origin", base, ActionRequestGuard.TOKEN_HEADER, token()));
    }

    /** POSTs an action with exactly these extra headers. */
    HttpResponse<String> post(String action, Map<String, Object> params, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/kafka-fetch/actions/" + action))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(params)));
        headers.forEach(b::header);
        return send(b);
    }

    /** A raw request, for what {@link HttpClient} does not let a caller set (a foreign {@code Host}). */
    String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static JsonObject json(String body) {
        try {
            return (JsonObject) Jsoner.deserialize(body);
        } catch (Exception e) {
            throw new AssertionError("not a JSON object: " + body, e);
        }
    }

    /** Every partition row of every task of that route, from the console's JSON. */
    List<Partition> partitions(String route) throws IOException, InterruptedException {
        JsonObject root = json(get("/q/dev/kafka-fetch?format=json").body());
        List<Partition> rows = new ArrayList<>();
        for (Object r : root.getCollection("routes")) {
            JsonObject routeJson = (JsonObject) r;
            if (!route.equals(routeJson.getString("routeId"))) {
                continue;
            }
            for (Object t : routeJson.getCollection("tasks")) {
                JsonObject task = (JsonObject) t;
                for (Object p : task.getCollection("partitions")) {
                    JsonObject pj = (JsonObject) p;
                    rows.add(new Partition(route, task.getString("threadName"), pj.getString("topic"),
                            pj.getInteger("partition"), pj.getLong("position"), pj.getLong("committed"),
                            pj.getBoolean("paused"), pj.getString("pausedReason"),
                            (JsonObject) pj.get("oldestUnfinished")));
                }
            }
        }
        return rows;
    }

    static String form(Map<String, Object> params) {
        Map<String, Object> ordered = new LinkedHashMap<>(params);
        return ordered.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                          + URLEncoder.encode(String.valueOf(e.getValue()), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
