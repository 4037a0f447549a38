package dev.kafkafetch.bench;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.ToLongFunction;

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
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.spi.ThreadPoolProfile;

/**
 * kafka-fetch or camel-kafka behind the same route shape: {@code from(uri).process(work)}, optionally with an
 * asynchronous delay before the work. The CamelContext is started
 * first with the route not started; {@link #startNanos()} is taken just before {@code startRoute}, and {@link #stop()}
 * times {@code stopRoute} only.
 */
final class CamelRouteContender implements Contender {

    private static final String ROUTE_ID = "bench";
    /** The same header names for camel-kafka and kafka-fetch. */
    private static final String KEY = "CamelKafkaKey";
    private static final String PARTITION = "CamelKafkaPartition";

    private final ContenderSpec spec;
    private final String extraOptions;
    private final long asyncDelayMs;
    private CamelContext camel;
    private volatile long startNanos;

    /** @param extraOptions appended to the endpoint URI ("&amp;k=v..."), or empty */
    CamelRouteContender(ContenderSpec spec, String extraOptions) {
        this(spec, extraOptions, 0);
    }

    /**
     * @param asyncDelayMs &gt; 0: the route waits this long asynchronously ({@code delay(ms).asyncDelayed()}, giving its
     *                     thread back) before the work, on a delayer whose queue is unbounded: Camel's default one
     *                     holds 1,000 and delays every exchange beyond that by sleeping on the calling thread, a
     *                     blocking route in disguise
     */
    CamelRouteContender(ContenderSpec spec, String extraOptions, long asyncDelayMs) {
        this.spec = spec;
        this.extraOptions = extraOptions;
        this.asyncDelayMs = asyncDelayMs;
    }

    String uri(String bootstrap, String topic, String groupId) {
        StringBuilder uri = new StringBuilder(spec.isKafkaFetch() ? "kafka-fetch:" : "kafka:").append(topic)
                .append("?brokers=").append(bootstrap)
                .append("&groupId=").append(groupId)
                .append("&autoOffsetReset=earliest")
                .append("&consumersCount=").append(spec.consumers());
        if (spec.isBatching() && spec.isCamelKafka()) {
            // camel-kafka 4.22's batching processor fails with a NullPointerException when maxPollRecords is unset;
            // 500 is Kafka's default and kafka-fetch's
            uri.append("&batching=true&maxPollRecords=500");
        } else if (spec.isBatching()) {
            uri.append("&batching=true");
        } else if (spec.isKafkaFetch()) {
            uri.append("&maxConcurrency=").append(spec.maxConcurrency())
                    .append("&ordering=").append(spec.ordering());
            if (spec.maxInFlight() > 0) {
                uri.append("&maxInFlightRecords=").append(spec.maxInFlight());
            }
        }
        if (spec.isKafkaFetch() && !spec.options().isEmpty()) {
            uri.append('&').append(spec.options());
        }
        return uri.append(extraOptions).toString();
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) throws Exception {
        String uri = uri(bootstrap, topic, groupId);
        boolean ids = work.needsIds();
        boolean value = work.needsValue();
        boolean headers = work.readsHeaders();
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
                RouteDefinition route = from(uri).routeId(ROUTE_ID).autoStartup(false);
                ProcessorDefinition<?> steps = asyncDelayMs > 0
                        ? route.delay(asyncDelayMs).asyncDelayed().executorService(unboundedDelayer(camel)) : route;
                steps.process(exchange -> {
                    if (spec.isBatching()) {
                        // batching: the body is the poll's list of per-record exchanges
                        for (Object record : exchange.getMessage().getBody(List.class)) {
                            Message m = ((Exchange) record).getMessage();
                            if (headers) {
                                work.onHeaders(m.getHeader(KEY), m.getHeader(PARTITION));
                            }
                            work.onRecord(ids ? m.getHeader(PARTITION, Integer.class) : -1,
                                    ids ? m.getHeader("CamelKafkaOffset", Long.class) : -1,
                                    value ? m.getBody(String.class) : null);
                        }
                        return;
                    }
                    Message m = exchange.getMessage();
                    if (headers) {
                        work.onHeaders(m.getHeader(KEY), m.getHeader(PARTITION));
                    }
                    int partition = -1;
                    long offset = -1;
                    if (ids) {
                        partition = m.getHeader(PARTITION, Integer.class);
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

    /** Camel's delayer threads (10, as by default), with no bound on the exchanges waiting for them. */
    static ScheduledExecutorService unboundedDelayer(CamelContext camel) {
        ThreadPoolProfile profile = new ThreadPoolProfile("unboundedDelay");
        profile.setPoolSize(10);
        profile.setMaxQueueSize(0);
        return camel.getExecutorServiceManager().newScheduledThreadPool(camel, "Delay", profile);
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
        return sum(TaskSnapshot::inFlight);
    }

    @Override
    public long running() {
        return sum(TaskSnapshot::running);
    }

    @Override
    public long held() {
        return sum(TaskSnapshot::held);
    }

    @Override
    public long backPressurePauses() {
        return sum(TaskSnapshot::backPressurePauses);
    }

    /** A figure of kafka-fetch's task snapshots, summed over the tasks; -1 for camel-kafka, or before the start. */
    private long sum(ToLongFunction<TaskSnapshot> figure) {
        List<TaskSnapshot> snapshots = snapshots();
        return snapshots == null ? -1 : snapshots.stream().mapToLong(figure).sum();
    }

    /** kafka-fetch's task snapshots, or null (camel-kafka, or not started). */
    private List<TaskSnapshot> snapshots() {
        CamelContext c = camel;
        if (c == null || !spec.isKafkaFetch()) {
            return null;
        }
        Route route = c.getRoute(ROUTE_ID);
        if (route == null || !(route.getConsumer() instanceof KafkaFetchConsumer)) {
            return null;
        }
        return ((KafkaFetchConsumer) route.getConsumer()).taskSnapshots();
    }
}
