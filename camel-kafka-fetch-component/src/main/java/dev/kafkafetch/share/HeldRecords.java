package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.kafkafetch.dispatch.WorkItem;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The records one share fetch task holds: acquired from the broker and not yet acknowledged. The one owner of their
 * acknowledgement state, on the fetch thread.
 * <p>
 * A KafkaShareConsumer in explicit mode must have acknowledged every record of its last poll before it may poll
 * again, and a record can only be acknowledged while the consumer counts it in flight. So each held record is
 * <i>in the client</i> (waiting for its acknowledgement: queued or running), <i>renewing</i> (acknowledged RENEW, not
 * yet handed back by a poll), or <i>lock lost</i> (its renewal failed: the broker may give it to another member, and
 * it can no longer be acknowledged here). Guarantees: a record is acknowledged at most once per delivery, only with
 * the outcome its worker decided, and only while the client can take it; an outcome decided while the record is
 * renewing is given as soon as the record is back; a late outcome of a record this task no longer holds (lock lost,
 * or delivered anew) is ignored; a queued record whose lock is lost is handed back to be cancelled, never started.
 */
final class HeldRecords {

    /** Acknowledges one record in the client (local, sends nothing). */
    interface Acknowledger {
        void acknowledge(ConsumerRecord<byte[], byte[]> record, AcknowledgeType type);
    }

    private record Id(String topic, int partition, long offset) {
    }

    private static final class Held {
        final ConsumerRecord<byte[], byte[]> record;
        final WorkItem item;
        boolean inClient = true;
        boolean renewing;
        AcknowledgeType pending;

        Held(ConsumerRecord<byte[], byte[]> record, WorkItem item) {
            this.record = record;
            this.item = item;
        }
    }

    private final Map<Id, Held> held = new HashMap<>();
    private final Acknowledger client;
    private final ShareMetrics metrics;
    private int inClient;
    private int renewing;
    private long released;
    private long releasedSent;
    private boolean mayHaveSent;

    HeldRecords(Acknowledger client, ShareMetrics metrics) {
        this.client = client;
        this.metrics = metrics;
    }

    /**
     * A record a poll returned. True when it is one this task holds and renewed (it is in the client again, and an
     * outcome decided meanwhile is given now); false when it is a new delivery, which the caller must {@link #add}.
     */
    boolean returned(ConsumerRecord<byte[], byte[]> record) {
        Held h = held.get(idOf(record));
        if (h == null || !h.renewing) {
            return false;
        }
        h.renewing = false;
        renewing--;
        h.inClient = true;
        inClient++;
        if (h.pending != null) {
            acknowledge(h, h.pending);
        }
        return true;
    }

    /** A newly delivered record, queued for the route (or waiting for its dead letter). */
    void add(ConsumerRecord<byte[], byte[]> record, WorkItem item) {
        Held previous = held.put(idOf(record), new Held(record, item));
        if (previous != null) {
            forget(previous); // its lock was lost and the broker delivered it again: the old outcome is ignored
        }
        inClient++;
    }

    /** The outcome of a record was decided: acknowledged now, or as soon as its renewal hands it back. */
    void decided(WorkItem item, AcknowledgeType type) {
        Id id = new Id(item.topic(), item.partition(), item.offset());
        Held h = held.get(id);
        if (h == null || h.item != item) {
            return; // no longer ours
        }
        if (h.inClient) {
            acknowledge(h, type);
        } else if (h.renewing) {
            h.pending = type;
        } else {
            held.remove(id); // lock lost: the broker decides about it now
        }
    }

    /** Acknowledges RENEW for every record waiting in the client; returns how many. */
    int renewAll() {
        int n = 0;
        for (Held h : held.values()) {
            if (h.inClient) {
                client.acknowledge(h.record, AcknowledgeType.RENEW);
                h.inClient = false;
                h.renewing = true;
                n++;
            }
        }
        inClient -= n;
        renewing += n;
        return n;
    }

    /** The broker refused the renewals of these partitions: those records' locks are lost. */
    List<WorkItem> renewalsFailed(Set<TopicPartition> partitions) {
        return loseLocks(h -> partitions.contains(new TopicPartition(h.record.topic(), h.record.partition())));
    }

    /** The broker refused the acknowledgements of these offsets: any of them renewing has lost its lock. */
    List<WorkItem> renewalsFailed(TopicPartition partition, Set<Long> offsets) {
        return loseLocks(
                h -> h.record.partition() == partition.partition() && h.record.topic().equals(partition.topic())
                     && offsets.contains(h.record.offset()));
    }

    /** The renewed records did not come back within a lock duration: whatever the broker answered, their locks ran out. */
    List<WorkItem> renewalsExpired() {
        return loseLocks(h -> true);
    }

    /**
     * The renewing records that match have lost their locks: the broker may give them to any member now. Forgets
     * all but the running ones (whose late outcome is then ignored); returns the queued ones, which must never start.
     */
    private List<WorkItem> loseLocks(Predicate<Held> which) {
        List<WorkItem> queued = new ArrayList<>();
        for (Iterator<Held> it = held.values().iterator(); it.hasNext();) {
            Held h = it.next();
            if (h.renewing && which.test(h)) {
                h.renewing = false;
                renewing--;
                metrics.lockLost();
                if (h.item.state() == WorkItem.QUEUED) {
                    queued.add(h.item);
                }
                if (h.pending != null || h.item.state() != WorkItem.RUNNING) {
                    it.remove();
                }
            }
        }
        return queued;
    }

    /** Records waiting for their acknowledgement in the client: the next poll must wait until they have one. */
    int inClient() {
        return inClient;
    }

    /** Records whose renewal has not handed them back yet. */
    int renewing() {
        return renewing;
    }

    /** Forgets every record (the consumer closed): late outcomes are ignored. */
    void clear() {
        held.clear();
        inClient = 0;
        renewing = 0;
    }

    /** Whether records were given back (an explicit RELEASE) since the client last sent acknowledgements. */
    boolean givingBack() {
        return released != releasedSent;
    }

    /** The client sent what was acknowledged so far (a poll or a commit). */
    void sent() {
        releasedSent = released;
        mayHaveSent = false;
    }

    /**
     * A poll failed (woken by a stop, for one) after it may have sent the acknowledgements: what was given back may be
     * at the broker already, or not.
     */
    void sendUncertain() {
        mayHaveSent = givingBack();
    }

    /** Whether records given back may have been sent by a poll that failed; the answer is given once. */
    boolean takeUncertainSend() {
        boolean was = mayHaveSent;
        mayHaveSent = false;
        return was;
    }

    /** Every record held, in whatever state. */
    int size() {
        return held.size();
    }

    private void acknowledge(Held h, AcknowledgeType type) {
        client.acknowledge(h.record, type);
        h.inClient = false;
        inClient--;
        held.remove(idOf(h.record));
        if (type == AcknowledgeType.RELEASE) {
            released++;
        }
        metrics.acknowledged(type, type == AcknowledgeType.ACCEPT && h.item.deadLettered());
    }

    private void forget(Held h) {
        if (h.inClient) {
            inClient--;
        }
        if (h.renewing) {
            renewing--;
        }
    }

    private static Id idOf(ConsumerRecord<?, ?> record) {
        return new Id(record.topic(), record.partition(), record.offset());
    }
}
