package dev.kafkafetch.tx;

import org.apache.kafka.common.KafkaException;

/**
 * A fetch task's transaction did not commit and was aborted (or its producer closed): none of its outputs and none of
 * its offsets count; the partitions it covered are read again from their committed offsets. Its own type, so that
 * nothing that retries a plain commit on a particular Kafka error retries a transaction whose outputs are gone.
 */
public final class TransactionAbortedException extends KafkaException {

    private static final long serialVersionUID = 1L;

    public TransactionAbortedException(String message, Throwable cause) {
        super(message, cause);
    }
}
