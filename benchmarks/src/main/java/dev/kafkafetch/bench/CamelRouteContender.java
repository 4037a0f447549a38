package dev.kafkafetch.bench;

import java.util.List;

import dev.kafkafetch.KafkaFetchConsumer;
import dev.kafkafetch.metrics.TaskSnapshot;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Route;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.impl.engine.PooledExchangeFactory;
import org.apache.camel.impl.engine.PooledProcessorExchangeFactory;

/**
 * kafka-fetch or camel-kafka behind the same route shape: {@code from(uri).process(work)}. The CamelContext is started
 * first with the route not started; {@link #startNanos()} is taken just before {@code startRoute}, and {@link #stop()}
 * times {@code stopRoute} only.
 */
final class CamelRouteContender implements Contender {

    private static final String ROUTE_ID = "bench";

    private final ContenderSpec spec;
    private final String extraOptions;
    private CamelContext camel;
    private volatile long startNanos;

    /** @param extraOptions appended to the endpoint URI ("&amp;k=v..."), or empty */
    CamelRouteContender(ContenderSpec spec, String extraOptions) {
        this.spec = spec;
        this.extraOptions = extraOptions;
    }

    String uri(String bootstrap, String topic, String groupId) {
        StringBuilder uri = new StringBuilder(spec.isKafkaFetch() ? "kafka-fetch:" : "kafka:").append(topic)
                .append("?brokers=").append(bootstrap)
                .append("&groupId=").append(groupId)
                .append("&autoOffsetReset=earliest")
                .append("&consumersCount=").append(spec.consumers());
        if (spec.isKafkaFetch() && spec.isBatching()) {
            uri.append("&batching=true");
        } else if (spec.isKafkaFetch()) {
            uri.append("&maxConcurrency=").append(spec.maxConcurrency())
                    .append("&ordering=").append(spec.ordering());
            if (spec.maxInFlight() > 0) {
                uri.append("&maxInFlightRecords=").append(spec.maxInFlight());
            }
        }
        return uri.append(extraOptions).toString();
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) throws Exception {
        String uri = uri(bootstrap, topic, groupId);
        boolean ids = work.needsIds();
        boolean value = work.needsValue();
        camel = new DefaultCamelContext();
        if (spec.pooled()) {
            // what camel.main.exchangeFactory=pooled sets up
            camel.getCamelContextExtension().setExchangeFactory(new PooledExchangeFactory());
            camel.getCamelContextExtension().setProcessorExchangeFactory(new PooledProcessorExchangeFactory());
        }
        camel.getShutdownStrategy().setTimeout(60);
        camel.getShutdownStrategy().setLogInflightExchangesOnTimeout(false);
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(ROUTE_ID).autoStartup(false).process(exchange -> {
                    if (spec.isBatching()) {
                        // batching: the body is the poll's list of per-record exchanges
                        for (Object record : exchange.getMessage().getBody(List.class)) {
                            Message m = ((Exchange) record).getMessage();
                            work.onRecord(ids ? m.getHeader("CamelKafkaPartition", Integer.class) : -1,
                                    ids ? m.getHeader("CamelKafkaOffset", Long.class) : -1,
                                    value ? m.getBody(String.class) : null);
                        }
                        return;
                    }
                    Message m = exchange.getMessage();
                    int partition = -1;
                    long offset = -1;
                    if (ids) {
                        partition = m.getHeader("CamelKafkaPartition", Integer.class);
                        offset = m.getHeader("CamelKafkaOffset", Long.class);
                    }
                    work.onRecord(partition, offset, value ? m.getBody(String.class) : null);
                });
            }
        });
        camel.start();
        startNanos = System.nanoTime();
        camel.getRouteController().startRoute(ROUTE_ID);
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
        if (c == null || !spec.isKafkaFetch()) {
            return -1;
        }
        Route route = c.getRoute(ROUTE_ID);
        if (route == null || !(route.getConsumer() instanceof KafkaFetchConsumer)) {
            return -1;
        }
        long sum = 0;
        for (TaskSnapshot s : ((KafkaFetchConsumer) route.getConsumer()).taskSnapshots()) {
            sum += s.inFlight();
        }
        return sum;
    }
}
