package dev.kafkafetch.metrics;

import java.util.List;

/**
 * An immutable picture of one fetch task, published by its fetch thread once per poll loop; readers (dev console,
 * health checks) never touch the task's KafkaConsumer. Times are epoch milliseconds, 0 when it never happened.
 *
 * @param inFlight               records polled and not finished
 * @param held                   records held since the committable offset, finished or not: what
 *                               {@code maxInFlightRecords} bounds (partitions are paused before it would be passed)
 * @param peakHeld               the most records ever held at once
 * @param running                records in the route now
 * @param queued                 records waiting for a free slot or for their ordering lane
 * @param stalledRunning         stalled records given up on (dead-lettered) whose thread has not come back yet
 * @param oldestRunningAgeMs     how long the longest-running record has been in the route, 0 when none runs
 * @param lastError              the last error, with secrets masked
 * @param deadLetterTrouble      why dead letters are not acknowledged (the broker rejects them, or keeps failing),
 *                               null when they are
 * @param connectionCount        the client's open (or opening) broker connections, Kafka's {@code connection-count}
 *                               consumer metric; -1 when unknown
 * @param lastBrokerResponseTime when the client last received a response (fetch, heartbeat, metadata, commit...)
 *                               from any broker, seen as growth of Kafka's {@code response-total} consumer metric
 * @param consumerCreatedTime    when the task's current KafkaConsumer was created
 * @param skippedFinished        polled records not routed because the commit's offset map named them finished
 * @param offsetMapsLeftOut      offset maps left out of a commit because they did not fit its metadata
 * @param recordsRetried         failed records handed to a retry topic (to be routed again after a delay)
 * @param recordsRedelivered     re-deliveries of failed records or batches (breakOnFirstError, Pausable EIP); a
 *                               re-delivered record is counted in {@code recordsFailed} only once it finishes failed
 * @param commitCalls            commitSync calls made by the task, successful or failed
 * @param commitCallNanos        the total time spent in those calls, in nanoseconds
 * @param repeatedOffsetsSkipped polled records skipped because their offset was not after the newest one polled from
 *                               their partition (repeated by an interceptor, or re-used after a log truncation)
 * @param recordsParked          records an operator parked (taken out of the route and dead-lettered with reason
 *                               {@code parked}); once acknowledged they count in {@code recordsFailed} and
 *                               {@code recordsDeadLettered} too
 * @param seeks                  partitions an operator sought (to an offset or a time)
 * @param offsetsSkipped         offsets those seeks skipped unprocessed (forward seeks, confirmed); fewer records
 *                               when compaction or transaction markers left gaps
 * @param lastSeek               what the last seek did (partition, from, to, who asked), or null
 */
public record TaskSnapshot(
        String threadName,
        String state,
        String subscription,
        String groupId,
        String groupInstanceId,
        String memberId,
        int generation,
        String clientId,
        List<PartitionSnapshot> partitions,
        long polls,
        long recordsPolled,
        long recordsFinished,
        long recordsFailed,
        long recordsDeadLettered,
        long recordsStalled,
        long commits,
        long commitFailures,
        long rebalances,
        long reconnects,
        long backPressurePauses,
        int inFlight,
        int held,
        int peakHeld,
        int running,
        int queued,
        int stalledRunning,
        int maxInFlightRecords,
        int maxConcurrency,
        long lastPollTime,
        long lastCommitTime,
        String lastError,
        long lastErrorTime,
        String deadLetterTrouble,
        double recordsPerSecond,
        long oldestRunningAgeMs,
        long snapshotTime,
        int connectionCount,
        long lastBrokerResponseTime,
        long consumerCreatedTime,
        long skippedFinished,
        long offsetMapsLeftOut,
        long recordsRetried,
        long recordsRedelivered,
        long commitCalls,
        long commitCallNanos,
        long repeatedOffsetsSkipped,
        long recordsParked,
        long seeks,
        long offsetsSkipped,
        String lastSeek) {

    /** A task that has not published anything yet. */
    public static TaskSnapshot initial(String threadName, String state, String subscription, String groupId,
                                       int maxInFlightRecords, int maxConcurrency) {
        return new TaskSnapshot(threadName, state, subscription, groupId, null, null, -1, null, List.of(), 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, maxInFlightRecords, maxConcurrency, 0, 0, null, 0, null,
                0.0, 0, System.currentTimeMillis(), -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);
    }

    /**
     * Records between fetch position and log end, summed over the partitions whose lag is known: 0 with no partition,
     * -1 while no partition's lag is known yet.
     */
    public long totalLag() {
        long sum = 0;
        boolean known = partitions.isEmpty();
        for (PartitionSnapshot p : partitions) {
            if (p.lag() >= 0) {
                sum += p.lag();
                known = true;
            }
        }
        return known ? sum : -1;
    }
}
