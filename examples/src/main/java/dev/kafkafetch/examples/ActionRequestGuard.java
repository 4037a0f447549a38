package dev.kafkafetch.examples;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;

import com.sun.net.httpserver.Headers;

/**
 * Decides whether an HTTP request that changes state may go on: only a page served by this server, in a browser on
 * this machine, can send one.
 * <p>
 * Guarantees, each check answering with the reason when it refuses:
 * <ul>
 * <li>the {@code Host} is a loopback name ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}) with this server's
 * port, so a page of another site whose name was re-bound to 127.0.0.1 (DNS rebinding) is refused;</li>
 * <li>the request says where it comes from, and it is this server: {@code Origin} equal to {@code http://<Host>}, or,
 * without {@code Origin}, {@code Sec-Fetch-Site: same-origin}; browsers set both and a page cannot forge them;</li>
 * <li>it carries this server's token in the {@value #TOKEN_HEADER} header. The token is random per server and is only
 * handed out in the page and in {@code GET /kafka-fetch/actions}, which another origin cannot read (no CORS headers are
 * ever sent); a custom header also makes a browser ask before a cross-origin send (a CORS preflight), which this
 * server never grants. A plain HTML form of another site can therefore send neither the header nor the token.</li>
 * </ul>
 */
final class ActionRequestGuard {

    /** The request header carrying the token. */
    static final String TOKEN_HEADER = "X-Kafka-Fetch-Token";

    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

    private final String token;

    ActionRequestGuard() {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** The per-server token a page sends back in {@value #TOKEN_HEADER}. */
    String token() {
        return token;
    }

    /** Null when a page of another origin cannot have sent this request, else why it is refused. */
    String refusal(Headers headers, int port) {
        String hostRefusal = hostRefusal(headers, port);
        if (hostRefusal != null) {
            return hostRefusal;
        }
        String host = headers.getFirst("Host");
        String origin = headers.getFirst("Origin");
        String site = headers.getFirst("Sec-Fetch-Site");
        if (origin != null) {
            if (!origin.equalsIgnoreCase("http://" + host)) {
                return "cross-origin request refused: Origin " + origin + " is not this server (http://" + host + ")";
            }
        } else if (site == null) {
            return "request refused: it names no origin (send Origin: http://" + host
                   + ", as a browser does, or Sec-Fetch-Site: same-origin)";
        }
        if (site != null && !site.equalsIgnoreCase("same-origin")) {
            return "cross-origin request refused: Sec-Fetch-Site is " + site + ", not same-origin";
        }
        String sent = headers.getFirst(TOKEN_HEADER);
        if (sent == null || sent.isEmpty()) {
            return "request refused: the " + TOKEN_HEADER + " header is missing (the page at /kafka-fetch sends it;"
                   + " GET /kafka-fetch/actions tells its value)";
        }
        if (!constantTimeEquals(sent, token)) {
            return "request refused: the " + TOKEN_HEADER + " header does not match this server's token (was the"
                   + " example restarted? reload the page)";
        }
        return null;
    }

    /** Null when {@code Host} is a loopback name with this port, else why the request is refused. */
    String hostRefusal(Headers headers, int port) {
        String host = headers.getFirst("Host");
        if (host == null) {
            return "request refused: no Host header";
        }
        String h = host.toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        boolean portMatches = colon > 0 && h.substring(colon + 1).equals(String.valueOf(port));
        String name = colon > 0 && !h.endsWith("]") ? h.substring(0, colon) : h;
        if (!portMatches || !LOOPBACK_NAMES.contains(name)) {
            return "request refused: Host " + host + " is not this server on localhost:" + port
                   + " (the example serves localhost only)";
        }
        return null;
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
