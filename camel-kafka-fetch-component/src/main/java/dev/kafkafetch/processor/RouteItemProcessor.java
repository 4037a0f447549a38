package dev.kafkafetch.processor;

import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.RecordOutputs;
import dev.kafkafetch.dispatch.WorkItem;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processor facades: streaming (one exchange per record) or batch (one exchange whose body is the
 * {@code List<Exchange>} of its records, with camel-kafka's batch headers and, with allowManualCommit, a manual commit
 * of the whole batch), run through the route's {@link org.apache.camel.AsyncProcessor}.
 * <p>
 * A handled exception counts as success. An exchange that still carries an exception after Camel's error handler
 * marks its {@link WorkItem} failed; without a dead-letter topic or breakOnFirstError it is also given to the
 * consumer's {@link org.apache.camel.spi.ExceptionHandler} (logged, or bridged to the route's error handler), as
 * camel-kafka does. A record that could not be deserialized is not routed: its exchange carries the raw bytes and the
 * cause and is treated as failed.
 */
public final class RouteItemProcessor implements ItemProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(RouteItemProcessor.class);

    private final DefaultConsumer consumer;
    private final ExchangeBuilder builder;
    private final boolean failuresHandledElsewhere;
    private final ManualCommitQueue manualCommits;
    private final boolean transacted;

    /**
     * @param failuresHandledElsewhere a dead-letter topic or breakOnFirstError takes care of failed records: don't
     *                                 also give them to the exception handler
     * @param manualCommits            null unless allowManualCommit
     */
    public RouteItemProcessor(DefaultConsumer consumer, ExchangeBuilder builder, boolean failuresHandledElsewhere,
                              ManualCommitQueue manualCommits) {
        this(consumer, builder, failuresHandledElsewhere, manualCommits, false);
    }

    /**
     * @param transacted each record's exchange carries its {@link RecordOutputs} (property
     *                   {@value RecordOutputs#PROPERTY}), where kafka-fetch producer endpoints hold its sends
     */
    public RouteItemProcessor(DefaultConsumer consumer, ExchangeBuilder builder, boolean failuresHandledElsewhere,
                              ManualCommitQueue manualCommits, boolean transacted) {
        this.consumer = consumer;
        this.builder = builder;
        this.failuresHandledElsewhere = failuresHandledElsewhere;
        this.manualCommits = manualCommits;
        this.transacted = transacted;
    }

    @Override
    public boolean process(WorkItem item, AsyncCallback callback) {
        Exchange exchange = consumer.createExchange(false);
        try {
            if (item.isBatch()) {
                List<Exchange> records = new ArrayList<>(item.batch().size());
                for (WorkItem r : item.batch()) {
                    Exchange child = consumer.getEndpoint().createExchange();
                    builder.fill(child, r, manualCommits);
                    records.add(child);
                }
                exchange.getMessage().setBody(records);
                exchange.getMessage().setHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, item.attempt());
                builder.putBatchHeaders(exchange.getMessage(), item, manualCommits);
            } else {
                builder.fill(exchange, item, manualCommits);
                if (transacted) {
                    exchange.setProperty(RecordOutputs.PROPERTY, item.holdOutputs());
                }
            }
        } catch (Exception e) {
            exchange.setException(e);
        }
        if (item.decodeError() != null || exchange.getException() != null) {
            if (exchange.getException() == null) {
                exchange.setException(item.decodeError());
            }
            finish(item, exchange);
            callback.done(true);
            return true;
        }
        return consumer.getAsyncProcessor().process(exchange, doneSync -> {
            finish(item, exchange);
            callback.done(doneSync);
        });
    }

    /** Tells the exception handler; one that throws must not keep the record from finishing (nor its slot). */
    private void handle(WorkItem item, Exchange exchange, Exception failure) {
        try {
            consumer.getExceptionHandler().handleException(
                    "Error processing " + item + (item.decodeError() != null
                            ? " (cannot deserialize it; its raw bytes are the body)" : ""),
                    exchange, failure);
        } catch (RuntimeException e) {
            LOG.warn("The exception handler failed on {} (the record counts failed and finished): {}", item,
                    e.toString());
        }
    }

    private void finish(WorkItem item, Exchange exchange) {
        try {
            Exception failure = exchange.getException();
            if (failure != null) {
                item.fail(item.decodeError() != null ? "deserialization" : "failed", failure);
                if (!failuresHandledElsewhere) {
                    handle(item, exchange, failure);
                }
            }
        } finally {
            consumer.releaseExchange(exchange, false);
        }
    }
}
