package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.util.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Secrets never leak through the console (docs/design.md §4.8): when a record fails with an exception whose message
 * quotes a password ({@code password="..."}) and a JAAS config ({@code sasl.jaas.config=... password=...;}), the
 * task's last error is shown in TEXT and JSON without the secret.
 */
class KafkaFetchDevConsoleMasksLastErrorTest extends DevConsoleTestSupport {

    private static final String SECRET = "hunter2";

    @Test
    void lastErrorIsShownWithoutTheSecretsItQuotes() throws Exception {
        String topic = KafkaTestSupport.uniqueName("dc-mask");
        kafka.createTopic(topic, 1);
        kafka.produceIds(topic, 3, "m", 1);
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "")).routeId("leaky")
                        .process(e -> {
                            throw new IllegalStateException("login failed for user u with password=\"" + SECRET
                                                            + "\"; client settings sasl.jaas.config=org.apache.kafka"
                                                            + ".common.security.plain.PlainLoginModule required"
                                                            + " username=\"u\" password=" + SECRET + ";");
                        });
            }
        });
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            List<JsonObject> tasks = tasks(route(json(context, Map.of()), "leaky"));
            return !tasks.isEmpty() && tasks.get(0).getString("lastError") != null;
        });

        String text = text(context, Map.of());
        assertThat(text).as("text output").contains("Last error:").doesNotContain(SECRET);
        JsonObject json = json(context, Map.of());
        assertThat(tasks(route(json, "leaky")).get(0).getString("lastError")).as("JSON lastError")
                .doesNotContain(SECRET);
        assertThat(json.toJson()).as("JSON output").doesNotContain(SECRET);
    }
}
