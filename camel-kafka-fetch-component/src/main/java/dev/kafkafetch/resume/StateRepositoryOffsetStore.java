package dev.kafkafetch.resume;

import java.util.Map;

import dev.kafkafetch.commit.OffsetStore;
import org.apache.camel.spi.StateRepository;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code offsetRepository} option: a Camel {@link StateRepository} written in camel-kafka's format (key
 * {@code topic/partition}, value the offset of the last finished record), so a repository written by camel-kafka
 * resumes kafka-fetch and the other way round.
 * <p>
 * Guarantee: it is written only with offsets the task committed, so the value never passes an unfinished record
 * (camel-kafka writes the offset of each record processed, which may pass a record still failing or running); a
 * partition it holds a value for starts right after that value when assigned.
 */
public final class StateRepositoryOffsetStore implements OffsetStore {

    private static final Logger LOG = LoggerFactory.getLogger(StateRepositoryOffsetStore.class);

    private final StateRepository<String, String> repository;

    public StateRepositoryOffsetStore(StateRepository<String, String> repository) {
        this.repository = repository;
    }

    /** camel-kafka's key of a partition. */
    public static String key(TopicPartition partition) {
        return partition.topic() + '/' + partition.partition();
    }

    @Override
    public long startOffset(TopicPartition partition) {
        String value = repository.getState(key(partition));
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim()) + 1;
        } catch (NumberFormatException e) {
            LOG.warn("offsetRepository holds '{}' for {}, not an offset: starting from the committed offset", value,
                    key(partition));
            return -1;
        }
    }

    @Override
    public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, o) -> {
            if (o.offset() > 0) {
                repository.setState(key(tp), Long.toString(o.offset() - 1));
            }
        });
    }
}
