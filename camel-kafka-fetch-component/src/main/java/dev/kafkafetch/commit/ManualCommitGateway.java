package dev.kafkafetch.commit;

import java.util.concurrent.CompletableFuture;

import dev.kafkafetch.processor.WorkItem;

/** Hands manual commit requests to the fetch thread that owns the record's KafkaConsumer. Thread-safe. */
public interface ManualCommitGateway {

    /** Asks the fetch thread to commit up to (and including) the item; completes when the broker answered. */
    CompletableFuture<Long> requestCommit(WorkItem item);

    long commitTimeoutMs();
}
