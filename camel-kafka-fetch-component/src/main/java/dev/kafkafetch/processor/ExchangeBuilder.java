package dev.kafkafetch.processor;

import java.util.List;
import java.util.Map;

import dev.kafkafetch.KafkaFetchConstants;
import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.Letters;
import dev.kafkafetch.error.RetryPlan;
import dev.kafkafetch.serde.KafkaHeaderDeserializer;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.kafka.common.header.Header;

/**
 * Fills an exchange from a polled record with the headers camel-kafka 4.22 sets, plus kafka-fetch's own; the headers
 * are built when the route first touches one ({@link KafkaFetchMessage}).
 */
public final class ExchangeBuilder {

    private final HeaderFilterStrategy headerFilterStrategy;
    private final KafkaHeaderDeserializer headerDeserializer;
    private final String groupId;
    private final boolean commitHeaders;
    private final KafkaManualCommitFactory manualCommits;
    private final RetryPlan retries;

    /**
     * @param commitHeaders set CamelKafkaLastRecordBeforeCommit / CamelKafkaLastPollRecord (as camel-kafka does when
     *                      autoCommitEnable is false or allowManualCommit is true)
     * @param manualCommits null unless allowManualCommit (then every fill gets a commit queue)
     * @param retries       null without retry topics; with them, the record's original topic, partition and offset
     */
    public ExchangeBuilder(HeaderFilterStrategy headerFilterStrategy, KafkaHeaderDeserializer headerDeserializer,
                           String groupId, boolean commitHeaders, KafkaManualCommitFactory manualCommits,
                           RetryPlan retries) {
        this.headerFilterStrategy = headerFilterStrategy;
        this.headerDeserializer = headerDeserializer;
        this.groupId = groupId;
        this.commitHeaders = commitHeaders;
        this.manualCommits = manualCommits;
        this.retries = retries;
    }

    /**
     * Makes the exchange's message the record's: its value as the body and, once anything reads or writes a header,
     * every header below ({@link KafkaFetchMessage}). A record that could not be deserialized gets its headers at
     * once, with its raw bytes as the body and the cause.
     */
    public void fill(Exchange exchange, WorkItem item, ManualCommitQueue commitQueue) {
        if (item.decodeError() == null) {
            KafkaFetchMessage.bind(exchange, item, this, commitQueue);
            return;
        }
        Message message = exchange.getMessage();
        putHeaders(message.getHeaders(), item, commitQueue, exchange);
        message.setBody(item.rawValue());
    }

    /**
     * The headers of a batch exchange, as camel-kafka 4.22 sets them: {@code CamelKafkaTopic} and
     * {@code CamelKafkaPartition} when every record of the batch shares them, and with allowManualCommit a
     * {@code CamelKafkaManualCommit} that commits the whole batch.
     */
    void putBatchHeaders(Message message, WorkItem batch, ManualCommitQueue commitQueue) {
        List<WorkItem> records = batch.records();
        String topic = records.get(0).topic();
        int partition = records.get(0).partition();
        boolean oneTopic = records.stream().allMatch(r -> r.topic().equals(topic));
        if (oneTopic) {
            message.setHeader(KafkaFetchConstants.TOPIC, topic);
            if (records.stream().allMatch(r -> r.partition() == partition)) {
                message.setHeader(KafkaFetchConstants.PARTITION, partition);
            }
        }
        if (manualCommits != null && commitQueue != null) {
            message.setHeader(KafkaFetchConstants.MANUAL_COMMIT,
                    manualCommits.newInstance(commitQueue.targetForBatch(batch)));
        }
    }

    /** The headers of a record's exchange, in the order camel-kafka sets them, then the record's own Kafka headers. */
    void putHeaders(Map<String, Object> headers, WorkItem item, ManualCommitQueue commitQueue, Exchange exchange) {
        headers.put(KafkaFetchConstants.PARTITION, item.partition());
        headers.put(KafkaFetchConstants.TOPIC, item.topic());
        headers.put(KafkaFetchConstants.OFFSET, item.offset());
        headers.put(KafkaFetchConstants.HEADERS, item.headers());
        headers.put(KafkaFetchConstants.TIMESTAMP, item.timestamp());
        headers.put(KafkaFetchConstants.MESSAGE_TIMESTAMP, item.timestamp());
        headers.put(KafkaFetchConstants.GROUP_ID, groupId);
        headers.put(KafkaFetchConstants.DELIVERY_ATTEMPT, item.attempt());
        if (commitHeaders) {
            headers.put(KafkaFetchConstants.LAST_RECORD_BEFORE_COMMIT, item.lastRecordBeforeCommit());
            headers.put(KafkaFetchConstants.LAST_POLL_RECORD, item.lastPollRecord());
        }
        if (retries != null) {
            Letters.Origin origin = Letters.originOf(item, retries);
            headers.put(KafkaFetchConstants.ORIGINAL_TOPIC, origin.topic());
            headers.put(KafkaFetchConstants.ORIGINAL_PARTITION, origin.partition());
            headers.put(KafkaFetchConstants.ORIGINAL_OFFSET, origin.offset());
        }
        if (manualCommits != null) {
            headers.put(KafkaFetchConstants.MANUAL_COMMIT, manualCommits.newInstance(commitQueue.targetFor(item)));
        }
        if (item.decodeError() != null) {
            // the raw bytes go to the route's error handling together with the cause
            if (item.rawKey() != null) {
                headers.put(KafkaFetchConstants.KEY, item.rawKey());
            }
            headers.put(KafkaFetchConstants.DESERIALIZATION_ERROR, item.decodeError());
            headers.put(KafkaFetchConstants.RAW_VALUE, item.rawValue());
        } else if (item.key() != null) {
            headers.put(KafkaFetchConstants.KEY, item.key());
        }
        if (item.headers() != null) {
            for (Header header : item.headers()) {
                Object value = headerDeserializer.deserialize(header.key(), header.value());
                if (!headerFilterStrategy.applyFilterToExternalHeaders(header.key(), value, exchange)) {
                    headers.put(header.key(), value);
                }
            }
        }
    }
}
