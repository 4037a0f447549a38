package dev.kafkafetch.commit;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import dev.kafkafetch.window.PartitionWindow;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits finished offsets for one fetch task, from the fetch thread only.
 * <p>
 * Guarantee: for every partition it commits at most {@link PartitionWindow#committable()}, the first offset that is
 * not finished, so a committed offset never runs ahead of the route. It commits on the interval, and whenever asked
 * (revoke, shutdown); a failed commit changes nothing and is retried at the next occasion.
 */
public final class CommitManager {

    private static final Logger LOG = LoggerFactory.getLogger(CommitManager.class);

    private final long intervalMs;
    private final Duration timeout;
    private long nextDueMs;
    private long commits;
    private long failures;
    private long lastCommitTimeMs;
    private String lastError;

    public CommitManager(long intervalMs, long timeoutMs) {
        this.intervalMs = intervalMs;
        this.timeout = Duration.ofMillis(timeoutMs);
    }

    /** Milliseconds until the next interval commit is due (0 when due now). */
    public long millisUntilDue(long nowMs) {
        return Math.max(0, nextDueMs - nowMs);
    }

    public boolean due(long nowMs) {
        return nowMs >= nextDueMs;
    }

    /** Commits the committable offsets of the windows that advanced since their last commit. */
    public boolean commit(Consumer<?, ?> consumer, Collection<PartitionWindow> windows, long nowMs) {
        nextDueMs = nowMs + intervalMs;
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionWindow window : windows) {
            if (window.hasUncommitted()) {
                offsets.put(window.partition(), new OffsetAndMetadata(window.committable()));
            }
        }
        if (offsets.isEmpty()) {
            return true;
        }
        try {
            consumer.commitSync(offsets, timeout);
            for (PartitionWindow window : windows) {
                OffsetAndMetadata committed = offsets.get(window.partition());
                if (committed != null) {
                    window.committed(committed.offset());
                }
            }
            commits++;
            lastCommitTimeMs = System.currentTimeMillis();
            LOG.debug("Committed {}", offsets);
            return true;
        } catch (org.apache.kafka.common.errors.WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            failures++;
            lastError = e.toString();
            LOG.warn("Commit of {} failed (will retry; nothing is lost, finished records may be re-delivered): {}",
                    offsets, e.toString());
            return false;
        }
    }

    /**
     * Commits explicit offsets (manual commits), each already checked against its window by the caller. Throws when
     * the commit failed.
     */
    public void commitExactly(Consumer<?, ?> consumer, Map<PartitionWindow, Long> targets) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        targets.forEach((w, offset) -> offsets.put(w.partition(), new OffsetAndMetadata(offset)));
        try {
            consumer.commitSync(offsets, timeout);
        } catch (RuntimeException e) {
            failures++;
            lastError = e.toString();
            throw e;
        }
        targets.forEach((w, offset) -> {
            if (offset > w.lastCommitted()) {
                w.committed(offset);
            }
        });
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

    public String lastError() {
        return lastError;
    }
}
