package dev.kafkafetch.processor;

import java.util.Map;

import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.WorkItem;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultMessage;

/**
 * The message of a record's exchange. The body is the record's value from the start; the headers (camel-kafka's, the
 * record's own Kafka headers and kafka-fetch's) are put into the header map only when something first reads or writes
 * a header, as camel-jms's {@code JmsMessage} and camel-mail's {@code MailMessage} do through Camel's
 * {@link DefaultMessage#populateInitialHeaders}. A route that never looks at a header never pays for building them.
 * <p>
 * Guarantee: every header reads exactly as if it had been set before the route started — {@link ExchangeBuilder}
 * fills the map from the same polled record — and a copy of the message (error handlers, EIPs) carries them all. With
 * Camel's pooled exchanges the message stays with its exchange: releasing the exchange resets it, and the next record
 * binds it again, unless its header map was created (then a fresh message is used, so no header of an earlier record
 * can show).
 */
public final class KafkaFetchMessage extends DefaultMessage {

    private WorkItem record;
    private ExchangeBuilder builder;
    private ManualCommitQueue commitQueue;

    private KafkaFetchMessage(CamelContext camelContext) {
        super(camelContext);
    }

    /** Makes the exchange's message a {@code KafkaFetchMessage} of {@code record} (reusing a pooled one). */
    static void bind(Exchange exchange, WorkItem record, ExchangeBuilder builder, ManualCommitQueue commitQueue) {
        KafkaFetchMessage message = exchange.getExchangeExtension().getInOrNull(KafkaFetchMessage.class);
        if (message == null || message.hasPopulatedHeaders() || message.record != null) {
            message = new KafkaFetchMessage(exchange.getContext());
            exchange.setIn(message);
        }
        message.record = record;
        message.builder = builder;
        message.commitQueue = commitQueue;
        message.setBody(record.value());
    }

    /** The polled record this message stands for, null once released. */
    public WorkItem record() {
        return record;
    }

    @Override
    protected boolean isPopulateHeadersSupported() {
        return record != null;
    }

    @Override
    protected void populateInitialHeaders(Map<String, Object> map) {
        if (record != null) {
            builder.putHeaders(map, record, commitQueue, getExchange());
        }
    }

    /** The record's timestamp, as the {@code CamelMessageTimestamp} header says, without building the headers. */
    @Override
    public long getMessageTimestamp() {
        if (record != null && !hasPopulatedHeaders()) {
            return record.timestamp() <= 0 ? 0 : record.timestamp();
        }
        return super.getMessageTimestamp();
    }

    @Override
    public void reset() {
        super.reset();
        record = null;
        builder = null;
        commitQueue = null;
    }

    /** Copies are plain messages: {@link #copyFrom} gives them every header of this one. */
    @Override
    public DefaultMessage newInstance() {
        return new DefaultMessage(getCamelContext());
    }
}
