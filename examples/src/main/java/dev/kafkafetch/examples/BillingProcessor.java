package dev.kafkafetch.examples;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
 * <p>
 * With a stuck order ({@code --stuck-order}), the payment call of that order hangs until {@link #release()} (the
 * example's stop) or for at most {@value #STUCK_MAX_MINUTES} minutes: a stuck record to find on the page and park.
 */
public final class BillingProcessor implements Processor {

    private static final Pattern AMOUNT = Pattern.compile("\"amount\"\\s*:\\s*(-?[0-9.]+)");
    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*([0-9]+)");

    static final int STUCK_MAX_MINUTES = 10;

    private final int minMillis;
    private final int maxMillis;
    private final long stuckOrder;
    private final CountDownLatch released = new CountDownLatch(1);

    /** @param minMillis shortest simulated call, @param maxMillis longest simulated call (exclusive) */
    public BillingProcessor(int minMillis, int maxMillis) {
        this(minMillis, maxMillis, 0);
    }

    /** @param stuckOrder the id of the order whose first payment call hangs, 0 = none */
    public BillingProcessor(int minMillis, int maxMillis, long stuckOrder) {
        if (minMillis < 0 || maxMillis <= minMillis) {
            throw new IllegalArgumentException("need 0 <= minMillis < maxMillis");
        }
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
        this.stuckOrder = stuckOrder;
    }

    /** Lets a stuck order's payment call return (the example is stopping). */
    public void release() {
        released.countDown();
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
        if (stuckOrder > 0 && orderId.equals(String.valueOf(stuckOrder)) && attempt == 1) {
            released.await(STUCK_MAX_MINUTES, TimeUnit.MINUTES); // a payment service that never answers
        }
        Thread.sleep(ThreadLocalRandom.current().nextInt(minMillis, maxMillis)); // the "payment service"
        exchange.getMessage().setHeader("billed", true);
    }
}
