package dev.kafkafetch.task;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.tx.RecordOutputs;
import dev.kafkafetch.tx.TransactionalCommitter;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a transacted fetch task's loop meets its {@link TransactionalCommitter}: the committer every commit of the
 * task goes through, the outputs of each finished record, and the partitions of an aborted transaction read again.
 * <p>
 * Guarantees: a record's outputs are handed on only when its window counted it finished (a record that failed, was
 * dropped or belongs to a retired partition sends nothing, and its buffer is sealed so later sends fail in the route);
 * after an abort the loop reads the aborted partitions again before any further commit. Fetch thread only.
 */
final class TransactedCommits {

    private final TransactionalCommitter committer;
    private final PartitionStates partitions;

    TransactedCommits(String taskName, Properties producerProperties,
                      Function<Properties, Producer<byte[], byte[]>> producers, TaskSettings settings,
                      PartitionStates partitions, Supplier<TaskConsumer> consumer) {
        this.committer = new TransactionalCommitter(taskName, producerProperties, producers,
                () -> consumer.get().groupMetadata(), settings.commitTimeoutMs());
        this.partitions = partitions;
    }

    CommitManager.Committer committer() {
        return committer;
    }

    /**
     * A new consumer: nothing of the old one's is held or aborted any more; the producer is ready before the consumer
     * asks for its committed offsets (see {@link TransactionalCommitter#start}).
     */
    void attached() {
        committer.reset();
        committer.start();
    }

    /** The record's execution is over; {@code counted}: its window counted it finished (it was not dropped). */
    void finished(WorkItem record, boolean counted, boolean failed) {
        RecordOutputs outputs = record.outputs();
        List<ProducerRecord<byte[], byte[]>> sends = outputs != null ? outputs.seal() : List.of();
        if (counted && !failed) {
            committer.finished(record.partitionState(), record.offset(), sends);
        }
    }

    /** Reads the partitions of aborted transactions again; true when the producer was fenced (the task must stop). */
    boolean restartAborted() {
        Set<TopicPartition> aborted = committer.takeAborted();
        if (!aborted.isEmpty()) {
            partitions.restartFromCommitted(aborted);
        }
        return committer.fenced();
    }

    TxSnapshot snapshot(long nowMs) {
        return committer.snapshot(nowMs);
    }

    void close() {
        committer.close();
    }
}
