package dev.kafkafetch.task;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.TopicPartition;

/**
 * The partitions an operator paused on one route's consumer, shared by its fetch tasks: written by any thread (the
 * Java API, JMX), read by the fetch threads, which carry the pauses out themselves at their next turn
 * ({@link #version()} tells them something changed). A pause belongs to the consumer, not to a task or an
 * assignment: a paused partition that is revoked and comes back, to the same task or another task of this consumer,
 * is paused again before any record of it is polled; while another member of the group owns it, it is not paused
 * there. Kept while the consumer exists (a stop and start of the route keeps it); gone with the JVM.
 */
public final class PartitionPauses {

    private final Map<TopicPartition, String> paused = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /** Pauses the partition, as asked by {@code requestedBy}; false when it was paused already. */
    public boolean pause(TopicPartition partition, String requestedBy) {
        boolean added = paused.putIfAbsent(partition, requestedBy) == null;
        if (added) {
            version.incrementAndGet();
        }
        return added;
    }

    /** Resumes the partition; false when it was not paused. */
    public boolean resume(TopicPartition partition) {
        boolean removed = paused.remove(partition) != null;
        if (removed) {
            version.incrementAndGet();
        }
        return removed;
    }

    public boolean isPaused(TopicPartition partition) {
        return !paused.isEmpty() && paused.containsKey(partition);
    }

    /** Who asked for the partition's pause, or null when it is not paused. */
    public String requestedBy(TopicPartition partition) {
        return paused.get(partition);
    }

    /** Grows with every change; read it before {@link #partitions()} so that no change is missed. */
    public long version() {
        return version.get();
    }

    /** The paused partitions and who asked, sorted by topic and partition. */
    public Map<TopicPartition, String> partitions() {
        Map<TopicPartition, String> sorted = new TreeMap<>(
                (a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic()));
        sorted.putAll(paused);
        return sorted;
    }
}
