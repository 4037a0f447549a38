package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.metrics.ShareSnapshot;
import org.apache.kafka.clients.consumer.AcknowledgeType;

/**
 * The share-group counters of one share fetch task and the {@link ShareSnapshot}s built from them. Written by the
 * fetch thread only (the acknowledgement callback runs on it too); a published snapshot is immutable.
 */
final class ShareMetrics {

    /** Delivery counts 1 .. BUCKETS-1 have a bucket each; the last bucket counts BUCKETS and more. */
    private static final int BUCKETS = 10;

    private final String threadName;
    private final String groupId;
    private final long[] deliveryCounts = new long[BUCKETS];
    private long acquired;
    private long accepted;
    private long released;
    private long rejected;
    private long deadLettered;
    private long renewed;
    private long lockLost;
    private long acknowledgementFailures;
    private int deliveryCountLimit = -1;
    private long lockDurationMs = -1;

    ShareMetrics(String threadName, String groupId) {
        this.threadName = threadName;
        this.groupId = groupId;
    }

    void acquired(int deliveryCount) {
        acquired++;
        deliveryCounts[Math.max(0, Math.min(deliveryCount, BUCKETS) - 1)]++;
    }

    void acknowledged(AcknowledgeType type, boolean deadLetter) {
        switch (type) {
            case ACCEPT -> accepted++;
            case RELEASE -> released++;
            case REJECT -> rejected++;
            default -> {
            }
        }
        if (deadLetter) {
            deadLettered++;
        }
    }

    void renewed(int records) {
        renewed += records;
    }

    void lockLost() {
        lockLost++;
    }

    void acknowledgementsFailed(int records) {
        acknowledgementFailures += records;
    }

    void deliveryCountLimit(int limit) {
        deliveryCountLimit = limit;
    }

    void lockDuration(long ms) {
        lockDurationMs = ms;
    }

    long accepted() {
        return accepted;
    }

    ShareSnapshot snapshot(int held, int maxDeliveryAttempts, long nowMs) {
        int last = BUCKETS;
        while (last > 0 && deliveryCounts[last - 1] == 0) {
            last--;
        }
        List<Long> counts = new ArrayList<>(last);
        for (int i = 0; i < last; i++) {
            counts.add(deliveryCounts[i]);
        }
        return new ShareSnapshot(threadName, groupId, held, acquired, accepted, released, rejected, deadLettered,
                renewed, lockLost, acknowledgementFailures, List.copyOf(counts), maxDeliveryAttempts,
                deliveryCountLimit, lockDurationMs, nowMs);
    }
}
