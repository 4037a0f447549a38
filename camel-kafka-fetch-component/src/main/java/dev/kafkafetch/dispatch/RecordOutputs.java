package dev.kafkafetch.dispatch;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The records one input record's exchange sends to {@code kafka-fetch:} producer endpoints while its fetch task is
 * transacted: held here, not sent, until the input record is finished.
 * <p>
 * Guarantee: once the fetch thread {@link #seal sealed} it (the record finished, failed or was given up on), nothing
 * more is added: a late send fails in the route instead of joining a transaction its input is not part of. Any thread
 * adds (a split or multicast may send from several); the fetch thread seals.
 */
public final class RecordOutputs {

    /** The exchange property the consumer puts it in, and the producer endpoint looks it up by. */
    public static final String PROPERTY = "CamelKafkaFetchRecordOutputs";

    private List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(1);
    private boolean sealed;
    private boolean letter;

    /** Holds a record to be sent once the input record is finished; throws when it is finished already. */
    public synchronized void add(ProducerRecord<byte[], byte[]> record) {
        if (sealed) {
            throw new IllegalStateException("kafka-fetch: the input record of this exchange is finished already (it"
                                            + " completed, was dead-lettered or given up on); a send made after that"
                                            + " cannot join its transaction");
        }
        records.add(record);
    }

    /** Fetch thread: no more records may be added; returns those held (empty when none). */
    public synchronized List<ProducerRecord<byte[], byte[]>> seal() {
        sealed = true;
        List<ProducerRecord<byte[], byte[]>> held = records;
        records = List.of();
        return held;
    }

    /**
     * The record failed for good and is dead-lettered inside the transaction: what the route sent is dropped, the
     * letter is its only output, and nothing more may be added (a stalled execution still running fails its later
     * sends). {@link #seal} then returns the letter.
     */
    public synchronized void sealWithLetter(ProducerRecord<byte[], byte[]> deadLetter) {
        sealed = true;
        letter = true;
        records = List.of(deadLetter);
    }

    /** Whether it holds a dead letter ({@link #sealWithLetter}): sent although its record failed. */
    public synchronized boolean holdsLetter() {
        return letter;
    }

    public synchronized int size() {
        return records.size();
    }
}
