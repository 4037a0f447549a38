package dev.kafkafetch.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.share.KafkaFetchShareConsumer;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * kafka-fetch-share behind the benchmark's route shape, {@code from(uri).process(work)}: {@code members} share
 * consumers (consumersCount) of one share group, each running {@code maxConcurrency} records at once. The share group
 * is set to start from the earliest offset (a group config) before the route starts.
 */
final class ShareContender implements Contender {

    private static final String ROUTE_ID = "bench-share";

    private final int members;
    private final int maxConcurrency;
    private final String options;
    private CamelContext camel;
    private volatile long startNanos;

    /** @param options further endpoint options ({@code a=1&b=2}); empty: the endpoint's defaults */
    ShareContender(int members, int maxConcurrency, String options) {
        this.members = members;
        this.maxConcurrency = maxConcurrency;
        this.options = options;
    }

    String label() {
        return "kafka-fetch-share cc=" + members + " mc=" + maxConcurrency
               + (options.isEmpty() ? " (defaults)" : " " + options);
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) throws Exception {
        startFromEarliest(bootstrap, groupId);
        String uri = "kafka-fetch-share:" + topic + "?brokers=" + bootstrap + "&groupId=" + groupId
                     + "&consumersCount=" + members + "&maxConcurrency=" + maxConcurrency
                     + (options.isEmpty() ? "" : "&" + options);
        camel = new DefaultCamelContext();
        camel.getShutdownStrategy().setTimeout(60);
        camel.getShutdownStrategy().setLogInflightExchangesOnTimeout(false);
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(ROUTE_ID).autoStartup(false).process(exchange -> work.onRecord(-1, -1, null));
            }
        });
        camel.start();
        startNanos = System.nanoTime();
        camel.getRouteController().startRoute(ROUTE_ID);
    }

    /** Sets the share group {@code groupId} to start from the earliest offset (a group config; a share group starts at the latest). */
    static void startFromEarliest(String bootstrap, String groupId) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, groupId),
                    List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                            AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public long stop() throws Exception {
        if (camel == null) {
            return 0;
        }
        try {
            long t0 = System.nanoTime();
            camel.getRouteController().stopRoute(ROUTE_ID);
            return System.nanoTime() - t0;
        } finally {
            camel.close();
            camel = null;
        }
    }

    @Override
    public long inFlight() {
        CamelContext c = camel;
        Route route = c == null ? null : c.getRoute(ROUTE_ID);
        if (route == null || !(route.getConsumer() instanceof KafkaFetchShareConsumer share)) {
            return -1;
        }
        return share.shareSnapshots().stream().mapToLong(ShareSnapshot::held).sum();
    }
}
