package dev.kafkafetch.processor;

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

/** Fills an exchange from a polled record with the headers camel-kafka 4.22 sets, plus kafka-fetch's own. */
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

    public void fill(Exchange exchange, WorkItem item, ManualCommitQueue commitQueue) {
        Message message = exchange.getMessage();
        message.setHeader(KafkaFetchConstants.PARTITION, item.partition());
        message.setHeader(KafkaFetchConstants.TOPIC, item.topic());
        message.setHeader(KafkaFetchConstants.OFFSET, item.offset());
        message.setHeader(KafkaFetchConstants.HEADERS, item.headers());
        message.setHeader(KafkaFetchConstants.TIMESTAMP, item.timestamp());
        message.setHeader(KafkaFetchConstants.MESSAGE_TIMESTAMP, item.timestamp());
        message.setHeader(KafkaFetchConstants.GROUP_ID, groupId);
        message.setHeader(KafkaFetchConstants.DELIVERY_ATTEMPT, item.attempt());
        if (commitHeaders) {
            message.setHeader(KafkaFetchConstants.LAST_RECORD_BEFORE_COMMIT, item.lastRecordBeforeCommit());
            message.setHeader(KafkaFetchConstants.LAST_POLL_RECORD, item.lastPollRecord());
        }
        if (retries != null) {
            Letters.Origin origin = Letters.originOf(item, retries);
            message.setHeader(KafkaFetchConstants.ORIGINAL_TOPIC, origin.topic());
            message.setHeader(KafkaFetchConstants.ORIGINAL_PARTITION, origin.partition());
            message.setHeader(KafkaFetchConstants.ORIGINAL_OFFSET, origin.offset());
        }
        if (manualCommits != null) {
            message.setHeader(KafkaFetchConstants.MANUAL_COMMIT,
                    manualCommits.newInstance(commitQueue.targetFor(item)));
        }
        if (item.decodeError() != null) {
            // the raw bytes go to the route's error handling together with the cause
            if (item.rawKey() != null) {
                message.setHeader(KafkaFetchConstants.KEY, item.rawKey());
            }
            message.setHeader(KafkaFetchConstants.DESERIALIZATION_ERROR, item.decodeError());
            message.setHeader(KafkaFetchConstants.RAW_VALUE, item.rawValue());
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
