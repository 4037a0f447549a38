package dev.kafkafetch.commit;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.OffsetMetadataTooLarge;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits finished offsets for one fetch task, from the fetch thread only.
 * <p>
 * Guarantee: for every partition it commits at most {@link PartitionState#committable()}, the first offset that is
 * not finished, so a committed offset never runs ahead of the route (docs/design.md §4.2). It commits on the interval,
 * soon after records finish (a partition whose committable offset advanced is committed at most every
 * {@code finishedIntervalMs}, so a crash re-delivers little more than what was in flight), and whenever asked (revoke,
 * shutdown, manual commits); a commit that is not on the interval never postpones the next interval commit of the other
 * partitions. A failed commit changes nothing and is retried at the next occasion. With the offset map on, each commit
 * also names the records finished above its offset ({@link OffsetMap}), and a commit is due when only those changed; a
 * map that does not fit is left out, never failing the commit.
 */
public final class CommitManager {

    /** The consumer's synchronous commit; wakeup-safe (see the fetch task's consumer). */
    @FunctionalInterface
    public interface Committer {
        void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout);
    }

    private static final Logger LOG = LoggerFactory.getLogger(CommitManager.class);
    /** Kafka's default {@code offset.metadata.max.bytes}; a broker set lower refuses the map, and the commit is redone. */
    static final int MAX_MAP_CHARS = 4096;

    private final long intervalMs;
    private final long finishedIntervalMs;
    private long lastAttemptMs;
    private final Duration timeout;
    private final boolean offsetMap;
    private long mapsLeftOut;
    private long nextDueMs;
    private long commits;
    private long failures;
    private long lastCommitTimeMs;
    private long commitCalls;
    private long commitCallNanos;
    private OffsetStore store = OffsetStore.NONE;

    /** @param offsetMap whether commits carry the offset map of finished records above them */
    public CommitManager(long intervalMs, long timeoutMs, boolean offsetMap) {
        this(intervalMs, 0, timeoutMs, offsetMap);
    }

    /**
     * @param finishedIntervalMs the least time between two commits of offsets that advanced; 0 = only on the interval
     * @param offsetMap          whether commits carry the offset map of finished records above them
     */
    public CommitManager(long intervalMs, long finishedIntervalMs, long timeoutMs, boolean offsetMap) {
        this.intervalMs = intervalMs;
        this.finishedIntervalMs = finishedIntervalMs;
        this.timeout = Duration.ofMillis(timeoutMs);
        this.offsetMap = offsetMap;
    }

    /** True when a commit of the state would write something new (see {@link PartitionState#needsCommit}). */
    public boolean needsCommit(PartitionState state) {
        return state.needsCommit(offsetMap);
    }

    /** Where committed offsets are also written (offsetRepository, resume strategies); set before the task runs. */
    public void setOffsetStore(OffsetStore store) {
        this.store = store;
    }

    /** Milliseconds until the next interval commit, or the next commit of finished records, is due (0: now). */
    public long millisUntilDue(long nowMs) {
        return Math.max(0, dueMs() - nowMs);
    }

    /**
     * The interval commit and the commit of finished records: commits every partition that advanced, when the
     * interval has passed or, with {@code finishedIntervalMs}, that long after the last attempt.
     */
    public void commitIfDue(Committer committer, Collection<PartitionState> states, long nowMs) {
        if (nowMs < dueMs()) {
            return;
        }
        if (nowMs >= nextDueMs) {
            nextDueMs = nowMs > Long.MAX_VALUE - intervalMs ? Long.MAX_VALUE : nowMs + intervalMs; // huge = never
        }
        lastAttemptMs = nowMs;
        commitFinished(committer, states);
    }

    private long dueMs() {
        return finishedIntervalMs > 0 ? Math.min(nextDueMs, lastAttemptMs + finishedIntervalMs) : nextDueMs;
    }

    /** Commits the committable offset (and offset map) of every given partition that changed since its last commit. */
    public boolean commitFinished(Committer committer, Collection<PartitionState> states) {
        Map<PartitionState, Long> targets = new HashMap<>();
        for (PartitionState state : states) {
            if (state.needsCommit(offsetMap)) {
                targets.put(state, state.commitOffset(offsetMap));
            }
        }
        try {
            commit(committer, targets);
            return true;
        } catch (RuntimeException e) {
            LOG.warn("Commit of {} failed (will retry; nothing is lost, finished records may be re-delivered): {}",
                    targets, e.toString());
            return false;
        }
    }

    /**
     * Commits what manual commits asked for, as far as no earlier unfinished record holds it back. Throws when the
     * commit failed (the targets stay, to be committed at the next occasion).
     */
    public void commitManual(Committer committer, Collection<PartitionState> states) {
        Map<PartitionState, Long> targets = new HashMap<>();
        for (PartitionState state : states) {
            long target = state.manualCommittable();
            if (target >= 0) {
                targets.put(state, target);
            }
        }
        commit(committer, targets);
    }

    private void commit(Committer committer, Map<PartitionState, Long> targets) {
        if (targets.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        targets.forEach((state, offset) -> offsets.put(state.partition(),
                new OffsetAndMetadata(offset, offsetMap ? mapOf(state, offset) : "")));
        try {
            try {
                timedCommitSync(committer, offsets);
            } catch (OffsetMetadataTooLarge e) {
                mapsLeftOut += offsets.size();
                LOG.warn("The broker refused the offset maps of {} (offset.metadata.max.bytes is lower than {}):"
                         + " committing without them",
                        offsets.keySet(), MAX_MAP_CHARS);
                offsets.replaceAll((tp, o) -> new OffsetAndMetadata(o.offset()));
                timedCommitSync(committer, offsets);
            }
        } catch (RuntimeException e) {
            failures++;
            throw e;
        }
        targets.forEach(PartitionState::committedWithMap);
        succeeded();
        stored(offsets);
        LOG.debug("Committed {}", offsets);
    }

    private String mapOf(PartitionState state, long offset) {
        String map = OffsetMap.encode(state, offset, MAX_MAP_CHARS);
        if (map == null) {
            mapsLeftOut++;
            return "";
        }
        return map;
    }

    /** Every commitSync call is timed, whether it succeeds or throws: the commit latency metric. */
    private void timedCommitSync(Committer committer, Map<TopicPartition, OffsetAndMetadata> offsets) {
        long start = System.nanoTime();
        try {
            committer.commitSync(offsets, timeout);
        } finally {
            commitCalls++;
            commitCallNanos += System.nanoTime() - start;
        }
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

    /** Offset maps left out of a commit because they would not fit the commit's metadata. */
    public long mapsLeftOut() {
        return mapsLeftOut;
    }

    /** commitSync calls made, successful or not. */
    public long commitCalls() {
        return commitCalls;
    }

    /** The total time spent in those calls, in nanoseconds. */
    public long commitCallNanos() {
        return commitCallNanos;
    }
}
