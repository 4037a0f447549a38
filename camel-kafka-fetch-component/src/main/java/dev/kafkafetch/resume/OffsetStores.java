package dev.kafkafetch.resume;

import java.util.List;
import java.util.Map;

import dev.kafkafetch.commit.OffsetStore;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** Several offset stores as one: the first that holds a position for a partition decides where it starts. */
public final class OffsetStores implements OffsetStore {

    private final List<OffsetStore> stores;

    private OffsetStores(List<OffsetStore> stores) {
        this.stores = stores;
    }

    /** The stores in order of precedence; {@link OffsetStore#NONE} when there is none. */
    public static OffsetStore of(List<OffsetStore> stores) {
        return stores.isEmpty() ? OffsetStore.NONE : stores.size() == 1 ? stores.get(0)
                : new OffsetStores(List.copyOf(stores));
    }

    @Override
    public long startOffset(TopicPartition partition) {
        for (OffsetStore store : stores) {
            long offset = store.startOffset(partition);
            if (offset >= 0) {
                return offset;
            }
        }
        return -1;
    }

    @Override
    public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        stores.forEach(s -> s.committed(offsets));
    }
}
