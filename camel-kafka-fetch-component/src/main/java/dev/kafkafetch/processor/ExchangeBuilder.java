package dev.kafkafetch.processor;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.serde.KafkaHeaderDeserializer;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.kafka.common.header.Header;

/** Fills an exchange from a polled record with the headers camel-kafka 4.22 sets. */
public final class ExchangeBuilder {

    private final HeaderFilterStrategy headerFilterStrategy;
    private final KafkaHeaderDeserializer headerDeserializer;
    private final String groupId;

    public ExchangeBuilder(HeaderFilterStrategy headerFilterStrategy, KafkaHeaderDeserializer headerDeserializer,
                           String groupId) {
        this.headerFilterStrategy = headerFilterStrategy;
        this.headerDeserializer = headerDeserializer;
        this.groupId = groupId;
    }

    public void fill(Exchange exchange, WorkItem item) {
        Message message = exchange.getMessage();
        message.setHeader(KafkaFetchConstants.PARTITION, item.partition());
        message.setHeader(KafkaFetchConstants.TOPIC, item.topic());
        message.setHeader(KafkaFetchConstants.OFFSET, item.offset());
        message.setHeader(KafkaFetchConstants.HEADERS, item.headers());
        message.setHeader(KafkaFetchConstants.TIMESTAMP, item.timestamp());
        message.setHeader(KafkaFetchConstants.MESSAGE_TIMESTAMP, item.timestamp());
        message.setHeader(KafkaFetchConstants.GROUP_ID, groupId);
        if (item.decodeError() != null) {
            // the raw bytes go to the route's error handling together with the cause
            if (item.rawKey() != null) {
                message.setHeader(KafkaFetchConstants.KEY, item.rawKey());
            }
            message.setHeader(KafkaFetchConstants.DESERIALIZATION_ERROR, item.decodeError());
            message.setBody(item.rawValue());
        } else {
            if (item.key() != null) {
                message.setHeader(KafkaFetchConstants.KEY, item.key());
            }
            message.setBody(item.value());
        }
        if (item.headers() != null) {
            for (Header header : item.headers()) {
                Object value = headerDeserializer.deserialize(header.key(), header.value());
                if (!headerFilterStrategy.applyFilterToExternalHeaders(header.key(), value, exchange)) {
                    message.setHeader(header.key(), value);
                }
            }
        }
    }
}
