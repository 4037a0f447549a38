package dev.kafkafetch.tx;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.dispatch.RecordOutputs;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code to("kafka-fetch:topic")}: sends the message to {@code topic} inside the transaction of the transacted
 * kafka-fetch consumer whose record the exchange carries: the record is held with that input record and sent, in the
 * fetch task's transaction, once the input record is finished (see {@link TransactionalCommitter}). The key is header
 * {@value KafkaFetchConstants#KEY} (the input record's key unless the route changes it), the value the body, both as
 * bytes through Camel's type converters.
 * <p>
 * Guarantee: it never sends outside such a transaction: an exchange that no transacted kafka-fetch consumer started
 * fails with a message saying so (camel-kafka's {@code kafka:} endpoint is there for other sends).
 */
public final class KafkaFetchProducer extends DefaultProducer {

    private final String topic;

    public KafkaFetchProducer(Endpoint endpoint, String topic) {
        super(endpoint);
        this.topic = topic;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        RecordOutputs outputs = exchange.getProperty(RecordOutputs.PROPERTY, RecordOutputs.class);
        if (outputs == null) {
            throw new IllegalStateException("kafka-fetch:" + topic + " sends only inside the transaction of a"
                                            + " kafka-fetch consumer with transacted=true, and this exchange did not"
                                            + " come from one; use camel-kafka's kafka: endpoint for other sends");
        }
        Object key = exchange.getMessage().getHeader(KafkaFetchConstants.KEY);
        byte[] keyBytes = key == null ? null
                : exchange.getContext().getTypeConverter().mandatoryConvertTo(byte[].class, exchange, key);
        byte[] value = exchange.getMessage().getBody() == null ? null
                : exchange.getMessage().getMandatoryBody(byte[].class);
        outputs.add(new ProducerRecord<>(topic, keyBytes, value));
    }
}
