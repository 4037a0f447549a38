package dev.kafkafetch.tx;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transacted fetch task's commits: each commit the {@link CommitManager} makes (interval, revoke, stop) becomes one
 * Kafka transaction of the task's own transactional producer: begin, the held outputs of the records the commit counts
 * finished, {@code sendOffsetsToTransaction} of the commit's offsets and offset maps with the consumer's group metadata
 * (KIP-447), commit.
 * <p>
 * Guarantees: a record's outputs are sent in a transaction only when that transaction's offsets count the record
 * finished: its offset is below the committed one, or the offset map committed with it names every finished record of
 * the partition (a partition whose map was left out sends only the outputs below its offset; the others wait). A
 * transaction that fails in any way (a failed send, a fenced producer, a group generation that moved on, a timeout) is
 * aborted, or its producer closed, and the partitions it covered are handed back through {@link #takeAborted()} to be
 * read again from their committed offsets; until then no other commit is made. A producer fenced by another with the
 * same transactional id (a restarted member: this one is the zombie) makes {@link #fenced()} true and commits nothing
 * more. Fetch thread only, except the counters read by snapshots.
 */
public final class TransactionalCommitter implements CommitManager.Committer {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalCommitter.class);

    /** The outputs of one finished record, waiting for a transaction that counts it finished. */
    private record Held(PartitionState owner, long offset, List<ProducerRecord<byte[], byte[]>> records, long sinceMs) {
    }

    private final String taskName;
    private final Properties producerProperties;
    private final Function<Properties, Producer<byte[], byte[]>> producers;
    private final Supplier<ConsumerGroupMetadata> groupMetadata;
    private final Duration closeTimeout;
    private final Map<TopicPartition, ArrayDeque<Held>> held = new HashMap<>();
    private final Set<TopicPartition> aborted = new HashSet<>();
    private Producer<byte[], byte[]> producer;
    private boolean fenced;
    private int heldRecords;
    private volatile long committed;
    private volatile long abortedCount;
    private volatile long outputsSent;
    private volatile long lastCommitMs;
    private volatile String lastAbort;

    /**
     * @param producerProperties the task's transactional producer settings ({@link TxSettings#producerProperties})
     * @param groupMetadata      the task consumer's current group metadata
     */
    public TransactionalCommitter(String taskName, Properties producerProperties,
                                  Function<Properties, Producer<byte[], byte[]>> producers,
                                  Supplier<ConsumerGroupMetadata> groupMetadata, long commitTimeoutMs) {
        this.taskName = taskName;
        this.producerProperties = producerProperties;
        this.producers = producers;
        this.groupMetadata = groupMetadata;
        this.closeTimeout = Duration.ofMillis(commitTimeoutMs);
    }

    /** A record finished (counted in its window): its outputs wait for a transaction that counts it. */
    public void finished(PartitionState owner, long offset, List<ProducerRecord<byte[], byte[]>> records) {
        if (records.isEmpty()) {
            return; // nothing to send: its offset alone is committed
        }
        held.computeIfAbsent(owner.partition(), tp -> new ArrayDeque<>())
                .add(new Held(owner, offset, records, System.currentTimeMillis()));
        heldRecords += records.size();
    }

    /** One transaction: the outputs these offsets count finished, then the offsets; see the class comment. */
    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        if (fenced) {
            throw new TransactionAbortedException("kafka-fetch " + taskName + ": its producer "
                                                  + producerProperties.getProperty("transactional.id")
                                                  + " was fenced by another with the same transactional id",
                    null);
        }
        if (!aborted.isEmpty()) {
            throw new TransactionAbortedException("kafka-fetch " + taskName + ": " + aborted
                                                  + " are read again after an aborted transaction first",
                    null);
        }
        List<ProducerRecord<byte[], byte[]>> sends = take(offsets);
        AtomicReference<Exception> failedSend = new AtomicReference<>();
        try {
            Producer<byte[], byte[]> p = producer();
            p.beginTransaction();
            for (ProducerRecord<byte[], byte[]> record : sends) {
                p.send(record, (metadata, e) -> {
                    if (e != null) {
                        failedSend.compareAndSet(null, e);
                    }
                });
            }
            p.sendOffsetsToTransaction(offsets, groupMetadata.get());
            p.commitTransaction(); // flushes first; throws when a send failed
        } catch (RuntimeException e) {
            Exception cause = failedSend.get() != null ? failedSend.get() : e;
            abort(cause, offsets.keySet());
            throw new TransactionAbortedException("kafka-fetch " + taskName + ": transaction of " + sends.size()
                                                  + " output(s) and offsets " + offsets.keySet()
                                                  + " aborted: " + cause,
                    cause);
        }
        committed++;
        outputsSent += sends.size();
        lastCommitMs = System.currentTimeMillis();
    }

    /** The held outputs that these offsets count finished, in the order their records finished; drops retired ones. */
    private List<ProducerRecord<byte[], byte[]>> take(Map<TopicPartition, OffsetAndMetadata> offsets) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>();
        for (Iterator<Map.Entry<TopicPartition, ArrayDeque<Held>>> it = held.entrySet().iterator(); it.hasNext();) {
            Map.Entry<TopicPartition, ArrayDeque<Held>> entry = it.next();
            OffsetAndMetadata commit = offsets.get(entry.getKey());
            boolean mapIncluded = commit != null && commit.metadata() != null && !commit.metadata().isEmpty();
            for (Iterator<Held> h = entry.getValue().iterator(); h.hasNext();) {
                Held record = h.next();
                if (record.owner().isRetired()) {
                    h.remove(); // its partition was revoked, lost or read again: it runs again
                    heldRecords -= record.records().size();
                } else if (commit != null && (record.offset() < commit.offset() || mapIncluded)) {
                    h.remove();
                    heldRecords -= record.records().size();
                    sends.addAll(record.records());
                }
            }
            if (entry.getValue().isEmpty()) {
                it.remove();
            }
        }
        return sends;
    }

    private void abort(Exception cause, Collection<TopicPartition> partitions) {
        abortedCount++;
        lastAbort = cause.toString();
        aborted.addAll(partitions);
        if (isFenced(cause)) {
            fenced = true;
            LOG.error("kafka-fetch {}: producer {} was fenced: a member with the same transactional id started; this"
                      + " task commits nothing more and stops",
                    taskName, producerProperties.getProperty("transactional.id"));
            closeProducer(Duration.ZERO);
            return;
        }
        LOG.warn("kafka-fetch {}: aborting the transaction of {} ({}); their records are read again from the"
                 + " committed offsets",
                taskName, partitions, cause.toString());
        if (producer != null) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException e) {
                // a fatal state or a timeout: a new producer's initTransactions aborts whatever this one left open
                closeProducer(Duration.ZERO);
            }
        }
    }

    private static boolean isFenced(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProducerFencedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Creates the producer and initializes its transactions now, before the consumer reads its committed offsets:
     * that fences an earlier incarnation and aborts what it left open, whose pending offsets would otherwise hold the
     * consumer's fetch of committed offsets until the transaction timed out. Throws when it cannot (retried by the
     * caller).
     */
    public void start() {
        producer();
    }

    private Producer<byte[], byte[]> producer() {
        if (producer == null) {
            Producer<byte[], byte[]> p = producers.apply(producerProperties);
            try {
                p.initTransactions(); // fences an earlier incarnation of this task and aborts what it left open
            } catch (RuntimeException e) {
                p.close(Duration.ZERO);
                throw e;
            }
            producer = p;
        }
        return producer;
    }

    /**
     * The partitions of aborted transactions since the last call, to be read again from their committed offsets;
     * commits are refused until this was called.
     */
    public Set<TopicPartition> takeAborted() {
        if (aborted.isEmpty()) {
            return Set.of();
        }
        Set<TopicPartition> taken = new HashSet<>(aborted);
        aborted.clear();
        return taken;
    }

    /**
     * The partitions taken could not be read again (the group's committed offsets could not be fetched): commits stay
     * refused until {@link #reset()}, when the task's consumer is created again.
     */
    public void holdAborted(Set<TopicPartition> partitions) {
        aborted.addAll(partitions);
    }

    /** A new consumer: what the old one held is gone (its states were retired). */
    public void reset() {
        held.clear();
        heldRecords = 0;
        aborted.clear();
    }

    /** True once the producer was fenced by another with the same transactional id. */
    public boolean fenced() {
        return fenced;
    }

    /** Closes the producer (no transaction is open between commits). */
    public void close() {
        closeProducer(closeTimeout);
    }

    private void closeProducer(Duration timeout) {
        Producer<byte[], byte[]> p = producer;
        producer = null;
        if (p != null) {
            try {
                p.close(timeout);
            } catch (RuntimeException e) {
                LOG.debug("kafka-fetch {}: closing the transactional producer failed: {}", taskName, e.toString());
            }
        }
    }

    /** What the console, health and meters show; any thread. */
    public TxSnapshot snapshot(long nowMs) {
        long oldest = 0;
        for (ArrayDeque<Held> q : held.values()) { // fetch thread only: the snapshot is taken there
            Held first = q.peekFirst();
            if (first != null && (oldest == 0 || first.sinceMs() < oldest)) {
                oldest = first.sinceMs();
            }
        }
        return new TxSnapshot(producerProperties.getProperty("transactional.id"), committed, abortedCount,
                outputsSent, heldRecords, oldest == 0 ? 0 : nowMs - oldest, lastCommitMs, lastAbort, fenced);
    }
}
