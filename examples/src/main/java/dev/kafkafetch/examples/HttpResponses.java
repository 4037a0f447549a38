package dev.kafkafetch.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import org.apache.camel.util.json.JsonObject;

/** Small helpers of the example's HTTP handlers: writing a response, reading a query string or form body. */
final class HttpResponses {

    private HttpResponses() {
    }

    /** Sends {@code body} with that status and content type (UTF-8); browsers are told not to guess the type. */
    static void send(HttpExchange http, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        http.getResponseHeaders().set("Content-Type", contentType + "; charset=utf-8");
        http.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = "HEAD".equals(http.getRequestMethod());
        http.sendResponseHeaders(status, head || bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = http.getResponseBody()) {
            if (!head) {
                out.write(bytes);
            }
        }
    }

    static void sendJson(HttpExchange http, int status, JsonObject body) throws IOException {
        http.getResponseHeaders().set("Cache-Control", "no-store");
        send(http, status, "application/json", body.toJson());
    }

    /** The JSON answer to a request that was not carried out: {@code {"status":"refused","message":...}}. */
    static JsonObject refused(String message) {
        JsonObject o = new JsonObject();
        o.put("status", "refused");
        o.put("message", message);
        return o;
    }

    /** The parameters of a query string or {@code application/x-www-form-urlencoded} body; empty for null. */
    static Map<String, String> query(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return values;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.put(key, value);
        }
        return values;
    }
}
