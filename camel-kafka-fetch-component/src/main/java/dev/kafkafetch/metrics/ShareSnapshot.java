package dev.kafkafetch.metrics;

import java.util.List;

/**
 * An immutable picture of the share-group side of one {@code kafka-fetch-share} fetch task (its general side is its
 * {@link TaskSnapshot}), published by the fetch thread once per loop; readers never touch the task's
 * KafkaShareConsumer. Counts are records since the task started.
 *
 * @param held                    records acquired and not yet acknowledged (queued, running, or waiting for their
 *                                dead letter)
 * @param acquired                records the broker delivered to this member (a renewed record is not counted again)
 * @param accepted                records acknowledged ACCEPT (finished by the route, or dead-lettered)
 * @param released                records acknowledged RELEASE (failed with deliveries left, or not started at stop)
 * @param rejected                records acknowledged REJECT (failed for good without a dead-letter topic)
 * @param deadLettered            records whose dead letter the broker acknowledged (counted in accepted too)
 * @param renewed                 acquisition locks renewed (one per record and renewal)
 * @param lockLost                records whose acquisition lock ran out or whose renewal failed while this member held
 *                                them (the broker may have delivered them to another member)
 * @param acknowledgementFailures acknowledgements the broker refused (e.g. the lock had run out)
 * @param deliveryCounts          how many acquired records had each delivery count: index 0 counts first deliveries,
 *                                index 1 second ones, ..., the last index that many or more
 * @param maxDeliveryAttempts     deliveries before a failure is final: maxDeliveryAttempts bounded by the group's
 *                                delivery count limit
 * @param deliveryCountLimit      the group's share.delivery.count.limit as last read (on connect, then in the
 *                                background), -1 while never read (the task then treats delivery 2 on as last)
 * @param lockDurationMs          the acquisition lock duration the broker reported, -1 when unknown
 */
public record ShareSnapshot(
        String threadName,
        String groupId,
        int held,
        long acquired,
        long accepted,
        long released,
        long rejected,
        long deadLettered,
        long renewed,
        long lockLost,
        long acknowledgementFailures,
        List<Long> deliveryCounts,
        int maxDeliveryAttempts,
        int deliveryCountLimit,
        long lockDurationMs,
        long snapshotTime) {

    /** A task that has not published anything yet. */
    public static ShareSnapshot initial(String threadName, String groupId, int maxDeliveryAttempts) {
        return new ShareSnapshot(threadName, groupId, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), maxDeliveryAttempts, -1,
                -1, System.currentTimeMillis());
    }
}
