package dev.kafkafetch.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.commit.OffsetMap;
import dev.kafkafetch.commit.OffsetStore;
import dev.kafkafetch.window.FinishedOffsets;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a fetch task's newly assigned partitions start: {@code seekTo} for the partitions of the route's first
 * assignment ({@link FirstAssignment}), else the position the offset store holds (offsetRepository, a resume
 * strategy), else the group's committed offset (Kafka's own choice, with autoOffsetReset when there is none); and
 * which records above that offset the commit's offset map names as finished already.
 * <p>
 * Guarantees: a partition that is not part of the route's first assignment (a retry topic, one taken over later) is
 * never sought to its beginning or end; one that is sought reports the position it was sought to, so that position can
 * be committed before anything is polled (its next owner starts there, not at autoOffsetReset). Fetch thread only,
 * inside the assignment callback.
 */
final class StartOffsets {

    /**
     * Where newly assigned partitions start.
     *
     * @param committed what the group committed for those that start there
     * @param sought    the position {@code seekTo} put the others at (absent when it could not be read in time)
     */
    record Start(Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> sought) {
        static final Start NONE = new Start(Map.of(), Map.of());
    }

    private static final Logger LOG = LoggerFactory.getLogger(StartOffsets.class);

    private final String taskName;
    private final TaskSettings settings;
    private FirstAssignment firstAssignment;
    private OffsetStore offsetStore = OffsetStore.NONE;

    StartOffsets(String taskName, TaskSettings settings) {
        this.taskName = taskName;
        this.settings = settings;
        this.firstAssignment = FirstAssignment.alone(settings.retries());
    }

    /** The route's first assignment, shared by its tasks; set before the task runs (alone by default). */
    void setFirstAssignment(FirstAssignment firstAssignment) {
        this.firstAssignment = firstAssignment;
    }

    void setOffsetStore(OffsetStore offsetStore) {
        this.offsetStore = offsetStore;
    }

    /**
     * A rebalance assigned {@code partitions} (possibly none): seeks them where they start, and returns what the group
     * committed for those that start there (so metrics show it, and the offset map can be read) and where the sought
     * ones are.
     */
    Start start(TaskConsumer consumer, Collection<TopicPartition> partitions) {
        List<TopicPartition> seek = settings.seekTo() != null
                ? firstAssignment.assigned(this, partitions, System.nanoTime() / 1_000_000) : List.of();
        if (partitions.isEmpty()) {
            return Start.NONE;
        }
        List<TopicPartition> rest = new ArrayList<>(partitions);
        rest.removeAll(seek);
        if (!seek.isEmpty()) {
            if (settings.seekTo() == SeekPolicy.BEGINNING) {
                consumer.seekToBeginning(seek);
            } else {
                consumer.seekToEnd(seek);
            }
            LOG.info("Fetch task {}: {} start at their {} (seekTo, the route's first assignment)", taskName, seek,
                    settings.seekTo());
        }
        for (TopicPartition tp : rest) {
            long offset = offsetStore.startOffset(tp);
            if (offset >= 0) {
                consumer.seek(tp, offset);
                LOG.info("Fetch task {}: {} starts at offset {} held by the offset store", taskName, tp, offset);
            }
        }
        return new Start(rest.isEmpty() ? Map.of() : committed(consumer, rest), positions(consumer, seek));
    }

    /** Where the sought partitions are now (the broker's beginning or end offset); any it cannot tell in time left out. */
    private Map<TopicPartition, Long> positions(TaskConsumer consumer, List<TopicPartition> sought) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : sought) {
            try {
                positions.put(tp, consumer.position(tp, Duration.ofMillis(settings.commitTimeoutMs())));
            } catch (RuntimeException e) {
                LOG.debug("Fetch task {}: the position seekTo put {} at is unknown: {}", taskName, tp, e.toString());
            }
        }
        return positions;
    }

    private Map<TopicPartition, OffsetAndMetadata> committed(TaskConsumer consumer, List<TopicPartition> partitions) {
        try {
            Map<TopicPartition, OffsetAndMetadata> map = consumer.committed(new HashSet<>(partitions),
                    Duration.ofMillis(settings.commitTimeoutMs()));
            Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
            map.forEach((tp, o) -> {
                if (o != null) {
                    result.put(tp, o);
                }
            });
            return result;
        } catch (RuntimeException e) {
            LOG.debug("Fetch task {}: committed offsets unknown: {}", taskName, e.toString());
            return Map.of();
        }
    }

    /** What the commit's offset map says was finished above its offset; nothing when it is absent, not ours or bad. */
    FinishedOffsets finishedAbove(TopicPartition tp, OffsetAndMetadata committed) {
        FinishedOffsets finished = OffsetMap.decode(committed.metadata(), committed.offset());
        if (finished == null && committed.metadata() != null && !committed.metadata().isEmpty()) {
            LOG.debug("Fetch task {}: the commit metadata of {} is no offset map of ours; nothing is skipped", taskName,
                    tp);
        } else if (finished != null) {
            LOG.info("Fetch task {}: {} has {}; they are not routed again", taskName, tp, finished);
        }
        return finished;
    }
}
