package dev.kafkafetch.share;

import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.processor.ExchangeBuilder;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultConsumer;

/**
 * The processor facade of {@code kafka-fetch-share}: one exchange per acquired record, with the headers of
 * {@code kafka-fetch} plus the broker's delivery count, run through the route's {@link org.apache.camel.AsyncProcessor}.
 * A handled exception counts as success; an exchange still carrying an exception after Camel's error handler marks
 * its {@link WorkItem} failed, and the share task decides (release, dead letter or reject) and reports it. Records
 * that cannot be deserialized never get here.
 */
public final class ShareItemProcessor implements ItemProcessor {

    private final DefaultConsumer consumer;
    private final ExchangeBuilder builder;

    public ShareItemProcessor(DefaultConsumer consumer, ExchangeBuilder builder) {
        this.consumer = consumer;
        this.builder = builder;
    }

    @Override
    public boolean process(WorkItem item, AsyncCallback callback) {
        Exchange exchange = consumer.createExchange(false);
        try {
            builder.fill(exchange, item, null);
            exchange.getMessage().setHeader(KafkaFetchShareConstants.DELIVERY_COUNT, item.attempt());
        } catch (Exception e) {
            exchange.setException(e);
            finish(item, exchange);
            callback.done(true);
            return true;
        }
        return consumer.getAsyncProcessor().process(exchange, doneSync -> {
            finish(item, exchange);
            callback.done(doneSync);
        });
    }

    private void finish(WorkItem item, Exchange exchange) {
        try {
            Exception failure = exchange.getException();
            // a stalled record given up on (ABANDONED) was decided already: its late failure changes nothing
            if (failure != null && item.state() == WorkItem.RUNNING) {
                item.fail("failed", failure);
            }
        } finally {
            consumer.releaseExchange(exchange, false);
        }
    }
}
