package dev.kafkafetch.resume;

import java.util.Map;

import dev.kafkafetch.commit.OffsetStore;
import org.apache.camel.resume.Cacheable;
import org.apache.camel.resume.Offset;
import org.apache.camel.resume.OffsetKey;
import org.apache.camel.resume.ResumeAdapter;
import org.apache.camel.resume.cache.ResumeCache;
import org.apache.camel.spi.annotations.JdkService;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camel's resume API for {@code kafka-fetch} routes ({@code from("kafka-fetch:...").resumable().resumeStrategy(...)}):
 * the resume strategy fills this adapter's cache with partition offsets (keys a {@link TopicPartition} or camel-kafka's
 * {@code topic/partition} text, values the offset to start from), and each newly assigned partition it holds an offset
 * for starts there — on the first assignment and after every rebalance, as camel-kafka's {@code KafkaResumeAdapter}.
 * <p>
 * Guarantee: seeking happens only inside the rebalance callback of the fetch thread that owns the partition, before any
 * of its records is polled; the adapter never touches a consumer itself ({@link #resume()} does nothing).
 */
@JdkService("kafka-fetch-adapter-factory")
public class KafkaFetchResumeAdapter implements ResumeAdapter, Cacheable, OffsetStore {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchResumeAdapter.class);

    private volatile ResumeCache<Object> cache;

    /** Seeking is done by each fetch task when partitions are assigned. */
    @Override
    public void resume() {
        // nothing to do here: see startOffset
    }

    @Override
    public boolean add(OffsetKey<?> key, Offset<?> offset) {
        Object k = key.getValue();
        Object v = offset.getValue();
        TopicPartition tp = partition(k);
        Long o = offset(v);
        if (tp == null || o == null) {
            LOG.warn("Resume strategy entry {} -> {} ignored: expected a TopicPartition (or topic/partition) and an"
                     + " offset",
                    k, v);
            return true;
        }
        cache.add(tp, o);
        return true;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void setCache(ResumeCache<?> cache) {
        this.cache = (ResumeCache<Object>) cache;
    }

    @Override
    public ResumeCache<?> getCache() {
        return cache;
    }

    @Override
    public long startOffset(TopicPartition partition) {
        ResumeCache<Object> c = cache;
        if (c == null) {
            return -1;
        }
        Object value = c.get(partition);
        if (value == null) {
            value = c.get(StateRepositoryOffsetStore.key(partition));
        }
        Long offset = offset(value);
        return offset == null || offset < 0 ? -1 : offset;
    }

    /** The strategy keeps its own offsets (the route updates it); commits are not its business. */
    @Override
    public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        // nothing kept
    }

    private static TopicPartition partition(Object key) {
        if (key instanceof TopicPartition tp) {
            return tp;
        }
        if (key instanceof String s) {
            int slash = s.lastIndexOf('/');
            if (slash > 0) {
                try {
                    return new TopicPartition(s.substring(0, slash), Integer.parseInt(s.substring(slash + 1)));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static Long offset(Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
