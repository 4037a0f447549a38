package dev.kafkafetch;

import org.apache.camel.Exchange;
import org.apache.camel.spi.Metadata;

/**
 * Exchange headers set by the kafka-fetch consumer (names shared with camel-kafka keep camel-kafka's values) and the
 * record headers of a dead letter.
 */
public final class KafkaFetchConstants {

    @Metadata(label = "consumer", description = "The partition where the message was stored", javaType = "Integer")
    public static final String PARTITION = "CamelKafkaPartition";
    @Metadata(label = "consumer", description = "The key of the message", javaType = "Object")
    public static final String KEY = "CamelKafkaKey";
    @Metadata(label = "consumer", description = "The topic from where the message originated", javaType = "String")
    public static final String TOPIC = "CamelKafkaTopic";
    @Metadata(label = "consumer", description = "The offset of the message", javaType = "Long")
    public static final String OFFSET = "CamelKafkaOffset";
    @Metadata(label = "consumer", description = "The record headers",
              javaType = "org.apache.kafka.common.header.Headers")
    public static final String HEADERS = "CamelKafkaHeaders";
    @Metadata(label = "consumer", description = "The timestamp of the message", javaType = "Long")
    public static final String TIMESTAMP = "CamelKafkaTimestamp";
    @Metadata(label = "consumer", description = "The timestamp of the message, in Camel's common header",
              javaType = "Long")
    public static final String MESSAGE_TIMESTAMP = Exchange.MESSAGE_TIMESTAMP;

    @Metadata(label = "consumer",
              description = "Whether it is the last record of its partition in the current poll (set when"
                            + " autoCommitEnable is false or allowManualCommit is true)",
              javaType = "Boolean")
    public static final String LAST_RECORD_BEFORE_COMMIT = "CamelKafkaLastRecordBeforeCommit";
    @Metadata(label = "consumer",
              description = "Whether it is the last record of the current poll (set when autoCommitEnable is false"
                            + " or allowManualCommit is true)",
              javaType = "Boolean")
    public static final String LAST_POLL_RECORD = "CamelKafkaLastPollRecord";
    @Metadata(label = "consumer",
              description = "With allowManualCommit=true: commits the offset after this record when its commit() is"
                            + " called, from any thread",
              javaType = "dev.kafkafetch.commit.KafkaManualCommit")
    public static final String MANUAL_COMMIT = "CamelKafkaManualCommit";
    @Metadata(label = "consumer",
              description = "How many times this record has been delivered by this consumer: 1, then counted up by"
                            + " breakOnFirstError re-deliveries",
              javaType = "Integer")
    public static final String DELIVERY_ATTEMPT = "CamelKafkaFetchDeliveryAttempt";
    @Metadata(label = "consumer", description = "The consumer group id of the fetch task that polled the record",
              javaType = "String")
    public static final String GROUP_ID = "CamelKafkaFetchGroupId";
    @Metadata(label = "consumer",
              description = "Set (with the raw record bytes as the body) when the record's key or value could not be"
                            + " deserialized: the deserialization error",
              javaType = "Exception")
    public static final String DESERIALIZATION_ERROR = "CamelKafkaFetchDeserializationError";
    @Metadata(label = "consumer",
              description = "Set when the record's key or value could not be deserialized: the raw value bytes (also"
                            + " the body, unless an error handler replaced it)",
              javaType = "byte[]")
    public static final String RAW_VALUE = "CamelKafkaFetchRawValue";

    @Metadata(label = "consumer",
              description = "With retryDelays: the topic the record was first consumed from (also on its first delivery)",
              javaType = "String")
    public static final String ORIGINAL_TOPIC = "CamelKafkaFetchOriginalTopic";
    @Metadata(label = "consumer", description = "With retryDelays: the partition the record was first consumed from",
              javaType = "Integer")
    public static final String ORIGINAL_PARTITION = "CamelKafkaFetchOriginalPartition";
    @Metadata(label = "consumer", description = "With retryDelays: the offset the record had in its original topic",
              javaType = "Long")
    public static final String ORIGINAL_OFFSET = "CamelKafkaFetchOriginalOffset";

    /** Record headers added to a dead letter (values are UTF-8 strings). */
    public static final String DLT_ORIGINAL_TOPIC = "kafka-fetch.dlt.original-topic";
    public static final String DLT_ORIGINAL_PARTITION = "kafka-fetch.dlt.original-partition";
    public static final String DLT_ORIGINAL_OFFSET = "kafka-fetch.dlt.original-offset";
    public static final String DLT_ORIGINAL_TIMESTAMP = "kafka-fetch.dlt.original-timestamp";
    public static final String DLT_GROUP_ID = "kafka-fetch.dlt.group-id";
    public static final String DLT_EXCEPTION_CLASS = "kafka-fetch.dlt.exception-class";
    public static final String DLT_EXCEPTION_MESSAGE = "kafka-fetch.dlt.exception-message";
    public static final String DLT_ATTEMPTS = "kafka-fetch.dlt.attempts";
    /** Why the record was dead-lettered: {@code failed}, {@code deserialization} or {@code stalled}. */
    public static final String DLT_REASON = "kafka-fetch.dlt.reason";

    /** Record headers of a retry letter (values are UTF-8 strings; the history header repeats, one per failure). */
    public static final String RETRY_ORIGINAL_TOPIC = "kafka-fetch.retry.original-topic";
    public static final String RETRY_ORIGINAL_PARTITION = "kafka-fetch.retry.original-partition";
    public static final String RETRY_ORIGINAL_OFFSET = "kafka-fetch.retry.original-offset";
    public static final String RETRY_ORIGINAL_TIMESTAMP = "kafka-fetch.retry.original-timestamp";
    /** The delivery attempt the retry letter is for: 2 for the first retry. */
    public static final String RETRY_ATTEMPT = "kafka-fetch.retry.attempt";
    /** Epoch milliseconds before which the retry letter is not routed. */
    public static final String RETRY_DUE = "kafka-fetch.retry.due";
    public static final String RETRY_GROUP_ID = "kafka-fetch.retry.group-id";
    public static final String RETRY_EXCEPTION_CLASS = "kafka-fetch.retry.exception-class";
    public static final String RETRY_EXCEPTION_MESSAGE = "kafka-fetch.retry.exception-message";
    /** One per failed delivery so far: {@code attempt <n> at <time> on <topic-partition@offset>: <exception>}. */
    public static final String RETRY_HISTORY = "kafka-fetch.retry.history";

    private KafkaFetchConstants() {
    }
}
