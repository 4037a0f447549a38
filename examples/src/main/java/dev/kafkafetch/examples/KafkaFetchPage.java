package dev.kafkafetch.examples;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/**
 * Serves the page at {@code /kafka-fetch}: plain HTML, JavaScript and CSS shipped as resources
 * ({@code kafka-fetch-page/}), no build step. The page reads the dev console's JSON and the action list, and sends
 * actions as POSTs with this server's token (see {@link ActionRequestGuard}), which is written into the HTML here.
 * <p>
 * Guarantees: only GET and HEAD (405 otherwise), only for a loopback {@code Host} (403 otherwise, against DNS
 * rebinding); the page may not be framed by another site ({@code frame-ancestors 'none'}, so its buttons cannot be
 * clicked through a disguise) and runs only its own scripts ({@code Content-Security-Policy}).
 */
final class KafkaFetchPage {

    static final String PATH = "/kafka-fetch";
    private static final String TOKEN_PLACEHOLDER = "@@TOKEN@@";
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
                                      + " img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final Map<String, String> ASSETS = Map.of(
            "/kafka-fetch/page.js", "application/javascript",
            "/kafka-fetch/page.css", "text/css");

    private final ActionRequestGuard guard;
    private final int port;

    KafkaFetchPage(ActionRequestGuard guard, int port) {
        this.guard = guard;
        this.port = port;
    }

    void handle(HttpExchange http) throws IOException {
        String method = http.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            http.getResponseHeaders().set("Allow", "GET");
            HttpResponses.send(http, 405, "text/plain", "The page is read with GET; actions are POSTs to "
                                                        + OperatorActionsHttp.PATH + "/<name>\n");
            return;
        }
        String refusal = guard.hostRefusal(http.getRequestHeaders(), port);
        if (refusal != null) {
            HttpResponses.send(http, 403, "text/plain", refusal + "\n");
            return;
        }
        String path = http.getRequestURI().getPath();
        http.getResponseHeaders().set("Content-Security-Policy", CSP);
        http.getResponseHeaders().set("X-Frame-Options", "DENY");
        http.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        if (path.equals(PATH) || path.equals(PATH + "/")) {
            http.getResponseHeaders().set("Cache-Control", "no-store");
            String html = resource("index.html").replace(TOKEN_PLACEHOLDER, guard.token());
            HttpResponses.send(http, 200, "text/html", html);
        } else if (ASSETS.containsKey(path)) {
            HttpResponses.send(http, 200, ASSETS.get(path), resource(path.substring(PATH.length() + 1)));
        } else {
            HttpResponses.send(http, 404, "text/plain", "Not found. The page is at " + PATH + "\n");
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = KafkaFetchPage.class.getResourceAsStream("/kafka-fetch-page/" + name)) {
            if (in == null) {
                throw new IOException("resource kafka-fetch-page/" + name + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
