package dev.kafkafetch.bench;

import org.apache.camel.CamelContext;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A Camel pipeline: {@code from(consumer).process(id + work).to(producer)}. The processor hands the record to
 * {@link Work} (the count, and the 10 ms sleep of the slow route) and sets the body to the record's id
 * ({@code partition-offset}); the key stays header {@code CamelKafkaKey} (the input's key), which both producers
 * use. Three shapes:
 * <ul>
 * <li>{@link Shape#KAFKA_FETCH_TRANSACTED}: {@code kafka-fetch:in?transacted=true} and {@code to("kafka-fetch:out")},
 * the outputs held until their record finishes and committed with the input offsets (exactly once);</li>
 * <li>{@link Shape#KAFKA_FETCH_PLAIN}: {@code kafka-fetch:in} and camel-kafka's {@code to("kafka:out")} (at least
 * once: the exchange finishes after the send is acknowledged);</li>
 * <li>{@link Shape#CAMEL_KAFKA}: camel-kafka's consumer and producer, one record at a time per consumer.</li>
 * </ul>
 * The CamelContext is started first with the route not started; {@link #startNanos()} is taken just before
 * {@code startRoute}, and {@link #stop()} times {@code stopRoute} only.
 */
final class CamelPipelineContender implements Contender {

    enum Shape {
        KAFKA_FETCH_TRANSACTED, KAFKA_FETCH_PLAIN, CAMEL_KAFKA
    }

    private static final String ROUTE_ID = "pipeline";

    private final Shape shape;
    private final String outTopic;
    private final int consumers;
    private final int maxConcurrency;
    private final String ordering;
    private final String camelKafkaExtra;
    private final String producerOptions;
    private CamelContext camel;
    private volatile long startNanos;

    /**
     * @param consumers       consumersCount
     * @param maxConcurrency  kafka-fetch's maxConcurrency (ignored by camel-kafka)
     * @param ordering        kafka-fetch's ordering (ignored by camel-kafka)
     * @param camelKafkaExtra appended to the camel-kafka consumer URI ("&amp;k=v"), or empty
     * @param producerOptions appended to camel-kafka's producer URI {@code kafka:out} ("&amp;k=v"), or empty
     */
    CamelPipelineContender(Shape shape, String outTopic, int consumers, int maxConcurrency, String ordering,
                           String camelKafkaExtra, String producerOptions) {
        this.shape = shape;
        this.outTopic = outTopic;
        this.consumers = consumers;
        this.maxConcurrency = maxConcurrency;
        this.ordering = ordering;
        this.camelKafkaExtra = camelKafkaExtra;
        this.producerOptions = producerOptions;
    }

    String consumerUri(String bootstrap, String topic, String groupId) {
        if (shape == Shape.CAMEL_KAFKA) {
            return new CamelRouteContender(ContenderSpec.camelKafka(consumers), camelKafkaExtra).uri(bootstrap, topic,
                    groupId);
        }
        String uri = new CamelRouteContender(ContenderSpec.kafkaFetch(consumers, maxConcurrency, ordering), "")
                .uri(bootstrap, topic, groupId);
        // a prefix of its own per run: no two runs' producers fence each other
        return shape == Shape.KAFKA_FETCH_TRANSACTED ? uri + "&transacted=true&transactionalIdPrefix=" + groupId : uri;
    }

    String producerUri(String bootstrap) {
        return shape == Shape.KAFKA_FETCH_TRANSACTED
                ? "kafka-fetch:" + outTopic
                : "kafka:" + outTopic + "?brokers=" + bootstrap + producerOptions;
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) throws Exception {
        String from = consumerUri(bootstrap, topic, groupId);
        String to = producerUri(bootstrap);
        camel = new DefaultCamelContext();
        camel.getShutdownStrategy().setTimeout(60);
        camel.getShutdownStrategy().setLogInflightExchangesOnTimeout(false);
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(from).routeId(ROUTE_ID).autoStartup(false)
                        .process(exchange -> {
                            Message m = exchange.getMessage();
                            int partition = m.getHeader("CamelKafkaPartition", Integer.class);
                            long offset = m.getHeader("CamelKafkaOffset", Long.class);
                            work.onRecord(partition, offset, null);
                            m.setBody(partition + "-" + offset);
                        })
                        .to(to);
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
}
