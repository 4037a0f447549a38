package dev.kafkafetch.share;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;

/**
 * The acknowledgements a share consumer was given that the broker has not answered yet, on the fetch thread: each is
 * counted when given and forgotten when the acknowledgement commit callback reports its answer (accepted or refused).
 * Lets a synchronous commit that a wakeup cut short still wait for the answer to what it sent.
 */
final class UnansweredAcknowledgements {

    private record Offset(String topic, int partition, long offset) {
    }

    private final Set<Offset> unanswered = new HashSet<>();

    /** The consumer took an acknowledgement of {@code record}; a commit or a poll sends it. */
    void given(ConsumerRecord<?, ?> record) {
        unanswered.add(new Offset(record.topic(), record.partition(), record.offset()));
    }

    /** The broker answered the acknowledgements of these offsets (the callback's arguments). */
    void answered(Map<TopicIdPartition, Set<Long>> offsets) {
        offsets.forEach((partition, answered) -> answered
                .forEach(o -> unanswered.remove(new Offset(partition.topic(), partition.partition(), o))));
    }

    /** Whether every acknowledgement given so far has its answer. */
    boolean none() {
        return unanswered.isEmpty();
    }
}
