package dev.kafkafetch.share;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;

/**
 * The acknowledgements a share consumer was given that the broker has not answered yet, on the fetch thread: each is
 * counted when given and forgotten when the acknowledgement commit callback reports its answer (accepted or refused).
 * Lets a synchronous commit that a wakeup cut short still wait for the answer to what it sent, and a poll wait for the
 * answers to lock renewals (RENEW) before it may fetch.
 */
final class UnansweredAcknowledgements {

    private record Offset(String topic, int partition, long offset) {
    }

    private final Map<Offset, AcknowledgeType> unanswered = new HashMap<>();
    private int renewals;
    private long renewalsSinceNanos;

    /** The consumer took an acknowledgement of {@code record}; a commit or a poll sends it. */
    void given(ConsumerRecord<?, ?> record, AcknowledgeType type) {
        AcknowledgeType previous = unanswered.put(new Offset(record.topic(), record.partition(), record.offset()),
                type);
        if (previous == AcknowledgeType.RENEW) {
            renewals--;
        }
        if (type == AcknowledgeType.RENEW) {
            if (renewals == 0) {
                renewalsSinceNanos = System.nanoTime();
            }
            renewals++;
        }
    }

    /** The broker answered the acknowledgements of these offsets (the callback's arguments). */
    void answered(Map<TopicIdPartition, Set<Long>> offsets) {
        offsets.forEach((partition, answered) -> answered.forEach(o -> {
            if (unanswered.remove(new Offset(partition.topic(), partition.partition(), o)) == AcknowledgeType.RENEW) {
                renewals--;
            }
        }));
    }

    /** Whether every acknowledgement given so far has its answer. */
    boolean none() {
        return unanswered.isEmpty();
    }

    /** Whether a lock renewal has no answer yet. */
    boolean anyRenewal() {
        return renewals > 0;
    }

    /**
     * Whether a lock renewal has no answer yet. Once the oldest has waited {@code lockNanos}, the renewals are
     * forgotten unanswered, those given since too (a broker that leaves one unanswered that long answers none): their
     * locks are gone either way, and nothing waits for them any more.
     */
    boolean renewalUnanswered(long lockNanos) {
        if (renewals > 0 && System.nanoTime() - renewalsSinceNanos >= lockNanos) {
            unanswered.values().removeIf(type -> type == AcknowledgeType.RENEW);
            renewals = 0;
        }
        return renewals > 0;
    }
}
