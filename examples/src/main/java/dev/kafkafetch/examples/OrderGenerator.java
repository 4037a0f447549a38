package dev.kafkafetch.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.support.DefaultMessage;

/**
 * Makes the sample orders: {@code {"orderId":42,"customer":"customer-7","amount":19.99}} keyed by customer, so that
 * {@code ordering=KEY} keeps each customer's orders in sequence. Every {@value #POISON_EVERY}th order has a negative
 * amount, which the billing route rejects: those end up in the dead-letter topic.
 * <p>
 * Called {@link #ticksPerSecond()} times a second by the producer route's timer; each call puts a list of messages
 * in the body, which camel-kafka's producer sends as one record each (keeping each message's key), together.
 */
public final class OrderGenerator implements Processor {

    static final int CUSTOMERS = 20;
    static final int POISON_EVERY = 97;

    private final int rate;
    private final int ticksPerSecond;
    private final AtomicLong sequence = new AtomicLong();
    private long ticks;

    /** @param rate orders per second (0 = none) */
    public OrderGenerator(int rate) {
        this.rate = Math.max(0, rate);
        this.ticksPerSecond = Math.max(1, Math.min(this.rate, 10));
    }

    /** How often the producer route should call this processor. */
    public int ticksPerSecond() {
        return ticksPerSecond;
    }

    @Override
    public void process(Exchange exchange) {
        long tick;
        synchronized (this) {
            tick = ticks++;
        }
        // spread the rate evenly over the ticks of a second, whatever the remainder
        int count = (int) (((tick % ticksPerSecond) + 1) * rate / ticksPerSecond
                           - (tick % ticksPerSecond) * rate / ticksPerSecond);
        List<Message> orders = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = sequence.incrementAndGet();
            String customer = "customer-" + (id % CUSTOMERS);
            double amount = id % POISON_EVERY == 0 ? -1.0 : ThreadLocalRandom.current().nextInt(100, 20_000) / 100.0;
            Message order = new DefaultMessage(exchange.getContext());
            order.setHeader(KafkaConstants.KEY, customer);
            order.setBody(String.format(Locale.ROOT, "{\"orderId\":%d,\"customer\":\"%s\",\"amount\":%.2f}", id,
                    customer, amount));
            orders.add(order);
        }
        exchange.getMessage().setBody(orders);
    }

    /** How many orders were generated so far. */
    public long generated() {
        return sequence.get();
    }
}
