package dev.kafkafetch.share;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.camel.spi.Metadata;

/**
 * Exchange headers set by the kafka-fetch-share consumer: the same names and values as {@link KafkaFetchConstants}
 * (camel-kafka's where shared), plus the broker's delivery count of the record.
 */
public final class KafkaFetchShareConstants {

    @Metadata(label = "consumer", description = "The partition where the message was stored", javaType = "Integer")
    public static final String PARTITION = KafkaFetchConstants.PARTITION;
    @Metadata(label = "consumer", description = "The key of the message", javaType = "Object")
    public static final String KEY = KafkaFetchConstants.KEY;
    @Metadata(label = "consumer", description = "The topic from where the message originated", javaType = "String")
    public static final String TOPIC = KafkaFetchConstants.TOPIC;
    @Metadata(label = "consumer", description = "The offset of the message", javaType = "Long")
    public static final String OFFSET = KafkaFetchConstants.OFFSET;
    @Metadata(label = "consumer", description = "The record headers",
              javaType = "org.apache.kafka.common.header.Headers")
    public static final String HEADERS = KafkaFetchConstants.HEADERS;
    @Metadata(label = "consumer", description = "The timestamp of the message", javaType = "Long")
    public static final String TIMESTAMP = KafkaFetchConstants.TIMESTAMP;
    @Metadata(label = "consumer", description = "The timestamp of the message, in Camel's common header",
              javaType = "Long")
    public static final String MESSAGE_TIMESTAMP = KafkaFetchConstants.MESSAGE_TIMESTAMP;
    @Metadata(label = "consumer", description = "The share group id of the fetch task that acquired the record",
              javaType = "String")
    public static final String GROUP_ID = KafkaFetchConstants.GROUP_ID;
    @Metadata(label = "consumer",
              description = "How many times the broker has delivered this record to the share group, this delivery"
                            + " included: 1 on the first delivery, counted up by the broker at each redelivery (a"
                            + " released record, or one whose acquisition lock ran out, e.g. when a member crashed)",
              javaType = "Integer")
    public static final String DELIVERY_COUNT = "CamelKafkaFetchDeliveryCount";
    @Metadata(label = "consumer",
              description = "The same as CamelKafkaFetchDeliveryCount (kept for routes shared with kafka-fetch)",
              javaType = "Integer")
    public static final String DELIVERY_ATTEMPT = KafkaFetchConstants.DELIVERY_ATTEMPT;

    /** Record header of a dead letter: the delivery count of the record's last delivery. */
    public static final String DLT_DELIVERY_COUNT = "kafka-fetch.dlt.delivery-count";

    private KafkaFetchShareConstants() {
    }
}
