package dev.kafkafetch.task;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.RecordOutputs;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.tx.TransactionalCommitter;
import dev.kafkafetch.tx.TxSnapshot;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a transacted fetch task's loop meets its {@link TransactionalCommitter}: the committer every commit of the
 * task goes through, the outputs of each finished record, and the partitions of an aborted transaction read again.
 * <p>
 * Guarantees: a record's outputs are handed on only when its window counted it finished (a record that failed, was
 * dropped or belongs to a retired partition sends nothing, and its buffer is sealed so later sends fail in the route;
 * a record that failed for good sends only its dead letter, in the transaction that commits its offset, so an abort
 * takes the letter back with the offset);
 * after an abort the loop reads the aborted partitions again before any further commit. Fetch thread only.
 */
final class TransactedCommits {

    private static final Logger LOG = LoggerFactory.getLogger(TransactedCommits.class);

    private final String taskName;
    private final TransactionalCommitter committer;
    private final PartitionStates partitions;
    private final SecretMasker masker;
    /** The last abort text as the committer gave it, and masked: masked once per abort, not per snapshot. */
    private String rawAbort;
    private String maskedAbort;

    TransactedCommits(String taskName, Properties producerProperties,
                      Function<Properties, Producer<byte[], byte[]>> producers, TaskSettings settings,
                      PartitionStates partitions, Supplier<TaskConsumer> consumer) {
        this.committer = new TransactionalCommitter(taskName, producerProperties, producers,
                () -> consumer.get().groupMetadata(), settings.commitTimeoutMs());
        this.partitions = partitions;
        this.taskName = taskName;
        this.masker = settings.masker();
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
        boolean deadLetter = outputs != null && outputs.holdsLetter();
        List<ProducerRecord<byte[], byte[]>> sends = outputs != null ? outputs.seal() : List.of();
        if (counted && (!failed || deadLetter)) {
            committer.finished(record.partitionState(), record.offset(), sends);
        }
    }

    /**
     * A seek back (a Pausable EIP pause on a failed record) is about to poll the partition again from {@code offset}: the
     * records finished from there on stay finished (their outputs wait, or were committed with an offset map naming
     * them), only the unfinished ones run again, so none writes twice.
     */
    static void seekingBack(PartitionState state, long offset) {
        state.keepFinishedFrom(offset);
    }

    /** What the loop does after {@link #restartAborted}. */
    enum Next {
        GO_ON,
        /** The producer was fenced by another with the same transactional id: this task is the zombie. */
        STOP,
        /** The aborted partitions' committed offsets could not be read: commits stay refused until a new consumer. */
        RECONNECT
    }

    /** Reads the partitions of aborted transactions again, from their committed offsets. */
    Next restartAborted(TaskMetrics metrics) {
        Set<TopicPartition> aborted = committer.takeAborted();
        if (!aborted.isEmpty()) {
            try {
                partitions.restartFromCommitted(aborted);
            } catch (RuntimeException e) {
                committer.holdAborted(aborted);
                metrics.error(e);
                LOG.warn("Fetch task {}: cannot read the committed offsets of {} after an aborted transaction ({});"
                         + " creating the consumer again",
                        taskName, aborted, e.toString());
                return Next.RECONNECT;
            }
        }
        if (committer.fenced()) {
            metrics.error("the transactional producer was fenced by another member with the same transactional id");
            return Next.STOP;
        }
        return Next.GO_ON;
    }

    /** The committer's snapshot with the last abort's text masked (docs/design.md §4.8: console, health, meters show it). */
    TxSnapshot snapshot(long nowMs) {
        TxSnapshot s = committer.snapshot(nowMs);
        String abort = s.lastAbort();
        if (abort == null) {
            return s;
        }
        if (!abort.equals(rawAbort)) {
            rawAbort = abort;
            maskedAbort = masker.mask(abort);
        }
        return s.withLastAbort(maskedAbort);
    }

    void close() {
        committer.close();
    }
}
