package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acquisition side of a share fetch task's loop, on its fetch thread: takes what a poll returned (renewed records
 * back into the client, new ones decoded and dispatched, undeserializable ones straight to their final outcome),
 * waits for outcomes and acknowledges them, and renews the locks of the records still held before half an acquisition
 * lock (or half of {@code max.poll.interval.ms}) has passed: RENEW, a synchronous commit of the acknowledgements,
 * then (by the task, as any poll) a zero-time poll, which hands the renewed records back without fetching new ones (a poll that fetched while
 * records are renewing would let new records wait, their locks running, until the renewals are over).
 * <p>
 * Guarantee: every record a poll returned enters {@link HeldRecords} before anything else happens to it, so none can
 * miss its acknowledgement; the fetch thread never waits for the route longer than until the next renewal is due.
 */
final class ShareIntake {

    private static final Logger LOG = LoggerFactory.getLogger(ShareIntake.class);
    /** While records run: the longest wait for an outcome before the loop publishes a snapshot again. */
    private static final long SNAPSHOT_EVERY_MS = 500;
    private static final int DEFAULT_LOCK_MS = 30_000;

    private final String threadName;
    private final long commitTimeoutMs;
    private final long maxPollIntervalMs;
    private final HeldRecords held;
    private final Dispatcher dispatcher;
    private final ShareOutcomes outcomes;
    private final ShareCompletions completions;
    private final TaskMetrics metrics;
    private final ShareMetrics shareMetrics;
    private final DeliveryLimit limit;
    private final List<WorkItem> decided = new ArrayList<>();
    private ShareClient client;
    private ShareDecoder decoder;
    private long renewAtMs = Long.MAX_VALUE;
    private long renewedAtMs;
    private long lockMs = DEFAULT_LOCK_MS;
    private boolean fetchOutstanding;

    ShareIntake(String threadName, ShareSettings settings, HeldRecords held, Dispatcher dispatcher,
                ShareOutcomes outcomes, ShareCompletions completions, TaskMetrics metrics, ShareMetrics shareMetrics,
                DeliveryLimit limit) {
        this.threadName = threadName;
        this.commitTimeoutMs = settings.commitTimeoutMs();
        this.maxPollIntervalMs = Long.parseLong(settings.properties().getProperty("max.poll.interval.ms", "300000"));
        this.held = held;
        this.dispatcher = dispatcher;
        this.outcomes = outcomes;
        this.completions = completions;
        this.metrics = metrics;
        this.shareMetrics = shareMetrics;
        this.limit = limit;
    }

    /** A new consumer (after a connect); null and null once it is closed. */
    void attach(ShareClient client, ShareDecoder decoder) {
        this.client = client;
        this.decoder = decoder;
        this.renewAtMs = Long.MAX_VALUE;
        this.fetchOutstanding = false;
    }

    /**
     * Whether the client may hold records it acquired that no poll has returned: after a poll that brought nothing
     * (it timed out or was woken) the client goes on fetching, and what that fetch acquires waits in its buffer for
     * the next poll. A poll that brought new records fetches no more; one that handed every renewed record back
     * fetches nothing either (its renewals were answered before it: {@link ShareClient#commitSync}), while one that
     * left records renewing asks for a fetch.
     */
    boolean fetchOutstanding() {
        return fetchOutstanding;
    }

    /** A poll failed: it may have fetched first, and what that fetch acquired waits in the client's buffer. */
    void pollFailed() {
        fetchOutstanding = true;
    }

    /** When the records held must be renewed (epoch ms). */
    long renewAtMs() {
        return renewAtMs;
    }

    /**
     * What a poll returned: renewed records are back in the client; new ones are decoded and dispatched. While
     * stopping, a new record is given back unless it is on its last delivery, where giving it back would archive it:
     * that one runs.
     */
    void take(ConsumerRecords<byte[], byte[]> records, long acquiredAtMs, boolean stopping) {
        if (records.isEmpty()) {
            fetchOutstanding = true;
            return;
        }
        lockMs = client.acquisitionLockTimeoutMs().orElse(DEFAULT_LOCK_MS);
        shareMetrics.lockDuration(lockMs);
        List<WorkItem> toRoute = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (held.returned(record)) {
                continue;
            }
            // a new acquisition: the task held nothing in the client when it polled, so all start their lock now
            renewAtMs = acquiredAtMs + renewInterval();
            WorkItem item = decoder.decode(record);
            held.add(record, item);
            fetchOutstanding = false;
            shareMetrics.acquired(item.attempt());
            if (stopping && !limit.isLast(item.attempt())) {
                held.decided(item, AcknowledgeType.RELEASE); // acquired while stopping: never started
            } else if (item.decodeError() != null) {
                item.fail("deserialization", item.decodeError());
                outcomes.failedForGood(item); // never routed
            } else {
                toRoute.add(item);
            }
        }
        if (held.renewing() > 0) {
            fetchOutstanding = true; // renewed records back while others still renew: the poll asked for a fetch
        }
        dispatcher.submitAll(toRoute);
    }

    /** Half the acquisition lock (or of max.poll.interval.ms, if shorter): when held records are renewed. */
    private long renewInterval() {
        return Math.max(1, Math.min(lockMs, maxPollIntervalMs) / 2);
    }

    /** Waits for outcomes until {@code untilMs} (at most a snapshot period), and acknowledges them. */
    void awaitOutcomes(long nowMs, long untilMs) throws InterruptedException {
        completions.await(Math.max(0, Math.min(untilMs, nowMs + SNAPSHOT_EVERY_MS) - nowMs), decided);
        for (WorkItem item : decided) {
            AcknowledgeType type = ShareOutcomes.acknowledgeTypeOf(item);
            held.decided(item, type);
            if (type == AcknowledgeType.RELEASE) {
                metrics.redelivering();
            } else {
                metrics.finished(item.failure() != null, item.deadLettered(), false);
            }
        }
        decided.clear();
        metrics.markRate(System.currentTimeMillis());
    }

    /**
     * Renews the lock of every record still held: RENEW, then a synchronous commit of the acknowledgements. True when
     * records are renewing: the caller's zero-time poll then hands them back without fetching new ones. A renewal the
     * broker refused costs those records their locks, whether its answer comes with this commit or later through the
     * acknowledgement callback (after a timeout or a wakeup ended the commit).
     */
    boolean renew(long startMs) {
        int renewing = held.renewAll();
        renewAtMs = startMs + renewInterval();
        if (renewing == 0) {
            return held.renewing() > 0;
        }
        renewedAtMs = startMs;
        Set<TopicPartition> failed = new HashSet<>();
        try {
            for (Map.Entry<TopicIdPartition, Optional<KafkaException>> e : client
                    .commitSync(commitTimeoutMs).entrySet()) {
                if (e.getValue().isPresent()) {
                    failed.add(e.getKey().topicPartition());
                    metrics.error("renewing the acquisition locks of " + e.getKey() + " failed: " + e.getValue().get());
                }
            }
        } catch (RuntimeException e) {
            metrics.error(e);
            LOG.warn("Share fetch task {}: renewing the acquisition locks of {} records failed: {}", threadName,
                    renewing, e.toString());
        }
        held.sent();
        lost(held.renewalsFailed(failed));
        shareMetrics.renewed(renewing);
        return held.renewing() > 0;
    }

    /** Renewed records a lock duration after their renewal are not coming back: their locks ran out. */
    void expireRenewals(long nowMs) {
        if (held.renewing() > 0 && nowMs - renewedAtMs > lockMs) {
            LOG.warn("Share fetch task {}: {} renewed records did not come back within the {} ms lock; their locks are"
                     + " lost",
                    threadName, held.renewing(), lockMs);
            lost(held.renewalsExpired());
        }
    }

    /** Queued records whose locks are lost never start: the broker may have given them to another member. */
    private void lost(List<WorkItem> queued) {
        if (!queued.isEmpty()) {
            Set<WorkItem> which = Collections.newSetFromMap(new IdentityHashMap<>());
            which.addAll(queued);
            dispatcher.cancel(which::contains);
        }
    }

    /** The broker answered acknowledgements (fetch thread, inside poll, commitSync or close). */
    void acknowledgementsCommitted(Map<TopicIdPartition, Set<Long>> offsets, Exception exception) {
        if (exception != null) {
            offsets.forEach((partition, refused) -> lost(held.renewalsFailed(partition.topicPartition(), refused)));
            int n = offsets.values().stream().mapToInt(Set::size).sum();
            shareMetrics.acknowledgementsFailed(n);
            metrics.error("the broker refused the acknowledgements of " + n + " records of " + offsets.keySet()
                          + ": " + exception);
        }
    }
}
