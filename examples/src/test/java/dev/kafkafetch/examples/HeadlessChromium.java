package dev.kafkafetch.examples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

import static org.awaitility.Awaitility.await;

/**
 * A headless Chromium (the distribution's {@code /usr/bin/chromium}) driven over the DevTools protocol with the JDK's
 * own WebSocket client: open a page, evaluate JavaScript in it, take a screenshot. Each instance has a fresh profile
 * directory, deleted on {@link #close()} with the browser process.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/chromium");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** Starts the browser with one tab on {@code url}. */
    static HeadlessChromium open(String url) throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        Process process = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps", "--user-data-dir=" + profile, "--remote-debugging-port=0",
                "--window-size=1280,1600", "about:blank")
                .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(portFile) && Files.size(portFile) > 0);
            String port = Files.readAllLines(portFile).get(0).trim();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> tab = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                                                                                   + "/json/new?" + url))
                    .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            String ws = ((JsonObject) Jsoner.deserialize(tab.body())).getString("webSocketDebuggerUrl");
            Listener listener = new Listener();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(ws), listener).get(30,
                    TimeUnit.SECONDS);
            HeadlessChromium browser = new HeadlessChromium(process, profile, socket);
            listener.browser = browser;
            return browser;
        } catch (Exception | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** The value of a JavaScript expression evaluated in the page (JSON-like: string, number, boolean, null). */
    Object eval(String expression) throws Exception {
        JsonObject params = new JsonObject();
        params.put("expression", expression);
        params.put("returnByValue", true);
        JsonObject result = call("Runtime.evaluate", params);
        JsonObject inner = (JsonObject) result.get("result");
        if (result.get("exceptionDetails") != null) {
            throw new IllegalStateException("JavaScript failed: " + result.toJson());
        }
        return inner == null ? null : inner.get("value");
    }

    /** A PNG of the whole page. */
    byte[] screenshot() throws Exception {
        JsonObject params = new JsonObject();
        params.put("format", "png");
        params.put("captureBeyondViewport", true);
        return Base64.getDecoder().decode(call("Page.captureScreenshot", params).getString("data"));
    }

    private JsonObject call(String method, JsonObject params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        pending.put(id, answer);
        JsonObject message = new JsonObject();
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        socket.sendText(message.toJson(), true).get(30, TimeUnit.SECONDS);
        JsonObject reply = answer.get(60, TimeUnit.SECONDS);
        if (reply.get("error") != null) {
            throw new IllegalStateException(method + " failed: " + reply.toJson());
        }
        return (JsonObject) reply.get("result");
    }

    @Override
    public void close() throws IOException {
        socket.abort();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(profile)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary profile left behind is harmless
        }
    }

    /** Collects the protocol's text frames into messages and hands each answer to the call waiting for it. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private volatile HeadlessChromium browser;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                try {
                    JsonObject json = (JsonObject) Jsoner.deserialize(message);
                    Object id = json.get("id");
                    HeadlessChromium b = browser;
                    if (id instanceof Number n && b != null) {
                        CompletableFuture<JsonObject> f = b.pending.remove(n.intValue());
                        if (f != null) {
                            f.complete(json);
                        }
                    }
                } catch (Exception e) {
                    // an event we cannot read: not an answer to a call
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
