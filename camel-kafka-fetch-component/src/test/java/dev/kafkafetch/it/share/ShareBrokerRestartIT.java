package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConstants;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import dev.kafkafetch.testinfra.EmbeddedKafkaCluster;
import dev.kafkafetch.testinfra.KafkaServices;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A share route while its only broker restarts, with records in the route: readiness goes DOWN while the broker is
 * away and UP once it is back, nothing is lost (every record produced is routed: none archived, none left), and the
 * records routed twice are at most those whose acknowledgement could not reach the broker: the records the members
 * held when it stopped, plus the acknowledgements it refused afterwards. Two members of four, one partition. The route
 * holds every record after the first fifth at a gate until the broker is down, so records are in the members when it
 * stops however slow the machine is.
 */
class ShareBrokerRestartIT extends ShareITSupport {

    private static final int RECORDS = 400;

    @Test
    void recordsInFlightWhileTheBrokerRestarts() throws Exception {
        try (EmbeddedKafkaCluster cluster = KafkaServices.embedded(1);
             KafkaTestSupport own = new KafkaTestSupport(cluster.bootstrapServers())) {
            String topic = KafkaTestSupport.uniqueName("share-restart");
            String group = KafkaTestSupport.uniqueName("sg");
            own.createTopic(topic, 1);
            prepareGroup(own.admin(), group, 0);
            List<String> produced = own.produceIds(topic, RECORDS, "r", 4);
            Map<String, List<Integer>> routed = new ConcurrentHashMap<>();
            CountDownLatch brokerStopped = new CountDownLatch(1);
            CamelContext context = newContext();
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(shareUri(topic, group, "brokers=" + cluster.bootstrapServers()
                                                + "&consumersCount=2&maxConcurrency=4"))
                            .routeId("share-restart").process(exchange -> {
                                String id = exchange.getMessage().getBody(String.class);
                                routed.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(exchange.getMessage()
                                        .getHeader(KafkaFetchShareConstants.DELIVERY_COUNT, Integer.class));
                                if (routed.size() > RECORDS / 5) {
                                    brokerStopped.await(60, TimeUnit.SECONDS);
                                }
                                Thread.sleep(25);
                            });
                }
            });
            context.start();
            KafkaFetchShareConsumer consumer = shareConsumer(context);
            await().atMost(Duration.ofSeconds(60)).until(() -> routed.size() >= RECORDS / 5);
            awaitReadiness(context, HealthCheck.State.UP, Duration.ofSeconds(30));
            await("records waiting at the gate").atMost(Duration.ofSeconds(30))
                    .until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) > 0);

            long heldBefore = sum(consumer.shareSnapshots(), ShareSnapshot::held);
            cluster.stopBroker(0);
            long heldAfter = sum(consumer.shareSnapshots(), ShareSnapshot::held);
            brokerStopped.countDown();
            long heldAtStop = Math.max(heldBefore, heldAfter);
            int routedAtStop = routed.size();
            assertThat(heldAtStop).as("records held by the members when the broker stopped").isPositive();
            assertThat(routedAtStop).as("records routed when the broker stopped").isLessThan(RECORDS);
            awaitReadiness(context, HealthCheck.State.DOWN, Duration.ofSeconds(30));

            cluster.startBroker(0);
            awaitReadiness(context, HealthCheck.State.UP, Duration.ofSeconds(90));
            await().atMost(Duration.ofSeconds(120)).until(() -> routed.keySet().containsAll(produced));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> sum(consumer.shareSnapshots(), ShareSnapshot::held) == 0);
            List<ShareSnapshot> shares = consumer.shareSnapshots();
            context.stop();

            long refused = sum(shares, ShareSnapshot::acknowledgementFailures);
            long duplicates = routed.values().stream().mapToLong(d -> d.size() - 1).sum();
            System.out.printf("share broker restart: %d routed at the stop, %d held then, %d acknowledgements refused,"
                              + " %d routed twice, lockLost %d%n",
                    routedAtStop, heldAtStop, refused, duplicates, sum(shares, ShareSnapshot::lockLost));
            assertThat(produced).as("lost").allSatisfy(id -> assertThat(routed).containsKey(id));
            assertThat(duplicates).as("routed twice (held at the stop %d, acknowledgements refused %d)", heldAtStop,
                    refused).isLessThanOrEqualTo(heldAtStop + refused);
        }
    }

    /** A context with Camel's consumers health-check repository, as camel-main's camel.health.* options set it up. */
    @Override
    protected CamelContext newContext() {
        CamelContext context = super.newContext();
        HealthCheckRegistry registry = HealthCheckRegistry.get(context);
        registry.register(registry.resolveById("consumers"));
        registry.setExposureLevel("full");
        return context;
    }

    private static void awaitReadiness(CamelContext context, HealthCheck.State state, Duration timeout) {
        await("readiness " + state).atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
            Optional<HealthCheck.Result> r = HealthCheckHelper.invokeReadiness(context).stream()
                    .filter(x -> "consumer:share-restart".equals(x.getCheck().getId())).findFirst();
            return r.isPresent() && r.get().getState() == state;
        });
    }
}
