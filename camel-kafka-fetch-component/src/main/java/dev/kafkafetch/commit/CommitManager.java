package dev.kafkafetch.commit;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits finished offsets for one fetch task, from the fetch thread only.
 * <p>
 * Guarantee: for every partition it commits at most {@link PartitionState#committable()}, the first offset that is
 * not finished, so a committed offset never runs ahead of the route (DESIGN §4.2). It commits on the interval and
 * whenever asked (revoke, shutdown, manual commits); a commit that is not on the interval never postpones the next
 * interval commit of the other partitions. A failed commit changes nothing and is retried at the next occasion.
 */
public final class CommitManager {

    /** The consumer's synchronous commit; wakeup-safe (see the fetch task's consumer). */
    @FunctionalInterface
    public interface Committer {
        void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout);
    }

    private static final Logger LOG = LoggerFactory.getLogger(CommitManager.class);

    private final long intervalMs;
    private final Duration timeout;
    private long nextDueMs;
    private long commits;
    private long failures;
    private long lastCommitTimeMs;
    private OffsetStore store = OffsetStore.NONE;

    public CommitManager(long intervalMs, long timeoutMs) {
        this.intervalMs = intervalMs;
        this.timeout = Duration.ofMillis(timeoutMs);
    }

    /** Where committed offsets are also written (offsetRepository, resume strategies); set before the task runs. */
    public void setOffsetStore(OffsetStore store) {
        this.store = store;
    }

    /** Milliseconds until the next interval commit is due (0 when due now). */
    public long millisUntilDue(long nowMs) {
        return Math.max(0, nextDueMs - nowMs);
    }

    /** The interval commit: commits every partition that advanced, when the interval has passed. */
    public void commitIfDue(Committer committer, Collection<PartitionState> states, long nowMs) {
        if (nowMs < nextDueMs) {
            return;
        }
        nextDueMs = nowMs > Long.MAX_VALUE - intervalMs ? Long.MAX_VALUE : nowMs + intervalMs; // huge = never
        commitFinished(committer, states);
    }

    /** Commits the committable offset of every given partition that advanced since its last commit. */
    public boolean commitFinished(Committer committer, Collection<PartitionState> states) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionState state : states) {
            if (state.hasUncommitted()) {
                offsets.put(state.partition(), new OffsetAndMetadata(state.committable()));
            }
        }
        if (offsets.isEmpty()) {
            return true;
        }
        try {
            committer.commitSync(offsets, timeout);
        } catch (RuntimeException e) {
            failures++;
            LOG.warn("Commit of {} failed (will retry; nothing is lost, finished records may be re-delivered): {}",
                    offsets, e.toString());
            return false;
        }
        for (PartitionState state : states) {
            OffsetAndMetadata committed = offsets.get(state.partition());
            if (committed != null) {
                state.committed(committed.offset());
            }
        }
        succeeded();
        stored(offsets);
        LOG.debug("Committed {}", offsets);
        return true;
    }

    /**
     * Commits what manual commits asked for, as far as no earlier unfinished record holds it back. Throws when the
     * commit failed (the targets stay, to be committed at the next occasion).
     */
    public void commitManual(Committer committer, Collection<PartitionState> states) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionState state : states) {
            long target = state.manualCommittable();
            if (target >= 0) {
                offsets.put(state.partition(), new OffsetAndMetadata(target));
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            committer.commitSync(offsets, timeout);
        } catch (RuntimeException e) {
            failures++;
            throw e;
        }
        for (PartitionState state : states) {
            OffsetAndMetadata committed = offsets.get(state.partition());
            if (committed != null) {
                state.committed(committed.offset());
            }
        }
        succeeded();
        stored(offsets);
    }

    /** A store that fails never fails the commit that Kafka accepted: it is written again at the next commit. */
    private void stored(Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            store.committed(offsets);
        } catch (RuntimeException e) {
            LOG.warn("Offset store could not keep {} (written again at the next commit): {}", offsets, e.toString());
        }
    }

    private void succeeded() {
        commits++;
        lastCommitTimeMs = System.currentTimeMillis();
    }

    public long commits() {
        return commits;
    }

    public long failures() {
        return failures;
    }

    public long lastCommitTimeMs() {
        return lastCommitTimeMs;
    }
}
