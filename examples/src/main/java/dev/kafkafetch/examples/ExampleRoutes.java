package dev.kafkafetch.examples;

import org.apache.camel.builder.RouteBuilder;

/**
 * The example's Java DSL routes (the {@code billing} route is in {@code routes/orders.camel.yaml}):
 * <ul>
 *   <li>{@code order-producer}: publishes sample orders with camel-kafka's {@code kafka:} producer, so that the
 *       consuming routes have work ({@code --rate} per second; {@code --rate 0} disables it);</li>
 *   <li>{@code dead-letters}: a second kafka-fetch consumer, on the dead-letter topic of the billing route, in a
 *       group of its own, strictly one record at a time per partition (camel-kafka's processing order).</li>
 * </ul>
 */
public final class ExampleRoutes extends RouteBuilder {

    public static final String PRODUCER_ROUTE = "order-producer";
    public static final String BILLING_ROUTE = "billing";
    public static final String DEAD_LETTER_ROUTE = "dead-letters";

    private final int rate;
    private final OrderGenerator generator;
    private final DeadLetterAudit audit;

    public ExampleRoutes(int rate, OrderGenerator generator, DeadLetterAudit audit) {
        this.rate = rate;
        this.generator = generator;
        this.audit = audit;
    }

    @Override
    public void configure() {
        from("timer:orders?fixedRate=true&includeMetadata=false&period=" + (1000 / generator.ticksPerSecond()))
                .routeId(PRODUCER_ROUTE)
                .autoStartup(rate > 0)
                .process(generator) // a list of orders: camel-kafka sends each as a record with its own key
                .to("kafka:{{example.topic}}?brokers={{kafka.brokers}}");

        from("kafka-fetch:{{example.deadLetterTopic}}"
             + "?brokers={{kafka.brokers}}"
             + "&groupId=dead-letter-audit"
             + "&consumersCount=1"
             + "&maxConcurrency=1"
             + "&ordering=PARTITION"
             + "&autoOffsetReset=earliest")
                .routeId(DEAD_LETTER_ROUTE)
                .process(audit);
    }
}
