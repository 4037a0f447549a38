package dev.kafkafetch.it.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.it.KafkaFetchITSupport;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.engine.PooledExchangeFactory;
import org.apache.camel.impl.engine.PooledProcessorExchangeFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Headers are built when the route first touches one, yet every record's headers read as its own: with Camel's
 * default and pooled exchange factories (an exchange and its message reused record after record), when only some
 * records' headers are read, and across a route restart. Every record arrives (lost = 0).
 */
class LazyHeadersIT extends KafkaFetchITSupport {

    private record Read(String id, Map<String, Object> headers) {
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void everyRecordReadsItsOwnHeadersWithDefaultAndPooledExchanges(boolean pooled) throws Exception {
        String topic = KafkaTestSupport.uniqueName("lazy");
        kafka.createTopic(topic, 2);
        List<String> produced = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            String id = "r-" + i;
            kafka.produce(topic, i % 2, "k-" + i, id, Map.of("trace", id.getBytes(StandardCharsets.UTF_8)));
            produced.add(id);
        }
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
        CamelContext context = newContext();
        if (pooled) {
            context.getCamelContextExtension().setExchangeFactory(new PooledExchangeFactory());
            context.getCamelContextExtension().setProcessorExchangeFactory(new PooledProcessorExchangeFactory());
        }
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri(topic, KafkaTestSupport.uniqueName("g"), "maxConcurrency=2")).routeId("lazy")
                        .process(e -> readSome(e, seen, reads));
            }
        });
        context.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.size() >= 40);
        context.getRouteController().stopRoute("lazy");
        context.getRouteController().startRoute("lazy");
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.containsAll(produced));

        assertThat(reads).hasSizeGreaterThanOrEqualTo(40);
        for (Read r : reads) {
            int n = Integer.parseInt(r.id().substring(2));
            Map<String, Object> h = r.headers();
            assertThat(h.get("trace")).as("trace of %s", r.id()).isEqualTo(r.id().getBytes(StandardCharsets.UTF_8));
            assertThat(h.get(KafkaFetchConstants.KEY)).as("key of %s", r.id()).isEqualTo("k-" + n);
            assertThat(h.get(KafkaFetchConstants.PARTITION)).as("partition of %s", r.id()).isEqualTo(n % 2);
            assertThat(h.get(KafkaFetchConstants.TOPIC)).isEqualTo(topic);
            assertThat(h.get(KafkaFetchConstants.OFFSET)).isInstanceOf(Long.class);
            assertThat(h.get(Exchange.MESSAGE_TIMESTAMP)).isEqualTo(h.get(KafkaFetchConstants.TIMESTAMP));
        }
    }

    /** Reads the headers of every third record only, so reused messages meet both read and unread predecessors. */
    private static void readSome(Exchange exchange, Set<String> seen, ConcurrentLinkedQueue<Read> reads) {
        Message m = exchange.getMessage();
        String id = m.getBody(String.class);
        if (Integer.parseInt(id.substring(2)) % 3 == 0) {
            reads.add(new Read(id, Map.copyOf(m.getHeaders())));
        }
        seen.add(id);
    }
}
