package dev.kafkafetch.devconsole;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.util.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A transacted route's tasks show their transactions (id, committed, aborted, outputs sent and waiting, the last
 * abort) in JSON and TEXT; a route that is not transacted has {@code "transactions": null}.
 */
class TransactedDevConsoleTest extends DevConsoleTestSupport {

    @Test
    void showsCommittedAndAbortedTransactions() throws Exception {
        String in = KafkaTestSupport.uniqueName("dc-tx-in");
        String out = KafkaTestSupport.uniqueName("dc-tx-out");
        String group = KafkaTestSupport.uniqueName("g");
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 1);
        kafka.produceIds(in, 200, "t", 20);
        AtomicBoolean once = new AtomicBoolean();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(in, group, "transacted=true&clientId=dc&maxConcurrency=8")).routeId("tx").process(e -> {
                    if (e.getMessage().getBody(String.class).endsWith("-100") && once.compareAndSet(false, true)) {
                        e.getMessage().setBody(new byte[2 * 1024 * 1024]); // the send fails: one abort
                    }
                }).to("kafka-fetch:" + out);
                from(uri(in, KafkaTestSupport.uniqueName("g"), "")).routeId("plain").to("log:plain?level=OFF");
            }
        });
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonObject tx = transactions(context);
            return tx != null && tx.getLong("outputsSent") == 200 && tx.getLong("aborted") >= 1;
        });
        JsonObject tx = transactions(context);
        assertThat(tx.getString("transactionalId")).isEqualTo("kafka-fetch-" + group + "-dc-0");
        assertThat(tx.getLong("committed")).isPositive();
        assertThat(tx.getString("lastAbort")).contains("RecordTooLarge");
        assertThat(tx.getBoolean("fenced")).isFalse();
        JsonObject plain = tasks(route(json(context, Map.of()), "plain")).get(0);
        assertThat(plain.containsKey("transactions")).isTrue();
        assertThat(plain.get("transactions")).isNull();
        assertThat(text(context, Map.of())).contains("Transactions: kafka-fetch-" + group + "-dc-0", "Last abort:");
    }

    private static JsonObject transactions(CamelContext context) {
        return (JsonObject) tasks(route(json(context, Map.of()), "tx")).get(0).get("transactions");
    }
}
