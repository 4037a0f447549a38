package dev.kafkafetch.examples;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The work of the {@code billing} route (routes/orders.camel.yaml): pretends to call a payment service (a few
 * milliseconds each, so that {@code maxConcurrency} matters) and rejects orders it cannot bill. A rejected order fails
 * the exchange; after Camel's error handler kafka-fetch retries it later from a retry topic ({@code retryDelays}) and
 * finally sends it to the route's {@code deadLetterTopic}, without holding up the orders behind it. Every 53rd order
 * meets a payment service that is briefly down: its first delivery fails, its retry succeeds.
 */
public final class BillingProcessor implements Processor {

    private static final Pattern AMOUNT = Pattern.compile("\"amount\"\\s*:\\s*(-?[0-9.]+)");
    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*([0-9]+)");

    private final int minMillis;
    private final int maxMillis;

    /** @param minMillis shortest simulated call, @param maxMillis longest simulated call (exclusive) */
    public BillingProcessor(int minMillis, int maxMillis) {
        if (minMillis < 0 || maxMillis <= minMillis) {
            throw new IllegalArgumentException("need 0 <= minMillis < maxMillis");
        }
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        String order = exchange.getMessage().getBody(String.class);
        Matcher amount = AMOUNT.matcher(order == null ? "" : order);
        if (!amount.find()) {
            throw new IllegalArgumentException("not an order: " + order);
        }
        Matcher id = ORDER_ID.matcher(order);
        String orderId = id.find() ? id.group(1) : "?";
        if (Double.parseDouble(amount.group(1)) < 0) {
            throw new IllegalArgumentException("order " + orderId + " has a negative amount");
        }
        int attempt = exchange.getMessage().getHeader("CamelKafkaFetchDeliveryAttempt", 1, Integer.class);
        if (!orderId.equals("?") && Long.parseLong(orderId) % 53 == 0 && attempt == 1) {
            throw new IllegalStateException("payment service unavailable for order " + orderId + " (try again later)");
        }
        Thread.sleep(ThreadLocalRandom.current().nextInt(minMillis, maxMillis)); // the "payment service"
        exchange.getMessage().setHeader("billed", true);
    }
}
