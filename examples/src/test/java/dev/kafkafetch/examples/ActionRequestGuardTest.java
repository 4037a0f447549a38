package dev.kafkafetch.examples;

import java.util.Map;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link ActionRequestGuard} lets through: only a same-origin request on a loopback Host with the token. */
class ActionRequestGuardTest {

    private final ActionRequestGuard guard = new ActionRequestGuard();

    @Test
    void theOwnPageGetsThrough() {
        assertThat(guard.refusal(headers("localhost:8080", "http://localhost:8080", null, guard.token()), 8080))
                .isNull();
        assertThat(guard.refusal(headers("127.0.0.1:8080", null, "same-origin", guard.token()), 8080)).isNull();
        assertThat(guard.refusal(headers("[::1]:8080", "http://[::1]:8080", "same-origin", guard.token()), 8080))
                .isNull();
    }

    @Test
    void eachMissingProofIsRefusedWithItsReason() {
        String token = guard.token();
        assertThat(guard.refusal(headers("localhost:8080", "http://evil.example", null, token), 8080))
                .contains("Origin http://evil.example is not this server");
        assertThat(guard.refusal(headers("localhost:8080", "http://localhost:9090", null, token), 8080))
                .contains("is not this server");
        assertThat(guard.refusal(headers("localhost:8080", "null", null, token), 8080))
                .contains("Origin null is not this server");
        assertThat(guard.refusal(headers("localhost:8080", "http://localhost:8080", "cross-site", token), 8080))
                .contains("Sec-Fetch-Site is cross-site");
        assertThat(guard.refusal(headers("localhost:8080", null, null, token), 8080)).contains("names no origin");
        assertThat(guard.refusal(headers("localhost:8080", "http://localhost:8080", null, null), 8080))
                .contains("header is missing");
        assertThat(guard.refusal(headers("localhost:8080", "http://localhost:8080", null, token + "x"), 8080))
                .contains("does not match");
        assertThat(guard.refusal(headers("evil.example:8080", "http://evil.example:8080", null, token), 8080))
                .contains("Host evil.example:8080 is not this server");
        assertThat(guard.refusal(headers("localhost:9090", "http://localhost:9090", null, token), 8080))
                .contains("is not this server on localhost:8080");
        assertThat(guard.refusal(headers(null, "http://localhost:8080", null, token), 8080)).contains("no Host");
    }

    @Test
    void eachServerHasItsOwnToken() {
        assertThat(new ActionRequestGuard().token()).isNotEqualTo(guard.token()).hasSizeGreaterThanOrEqualTo(32);
    }

    private static Headers headers(String host, String origin, String site, String token) {
        Headers h = new Headers();
        Map.of("Host", host == null ? "" : host, "Origin", origin == null ? "" : origin, "Sec-Fetch-Site",
                site == null ? "" : site, ActionRequestGuard.TOKEN_HEADER, token == null ? "" : token)
                .forEach((k, v) -> {
                    if (!v.isEmpty()) {
                        h.add(k, v);
                    }
                });
        return h;
    }
}
