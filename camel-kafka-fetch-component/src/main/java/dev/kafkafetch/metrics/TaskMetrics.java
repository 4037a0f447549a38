package dev.kafkafetch.metrics;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.security.SecretMasker;

/**
 * The counters of one fetch task and the snapshots built from them.
 * <p>
 * Guarantees: counters are written by the fetch thread only; the last error and the dead-letter trouble may be set
 * from any thread and are masked once, here, before anyone can read them (docs/design.md §4.8); a published
 * {@link TaskSnapshot} is immutable, so readers never block the fetch thread.
 */
public final class TaskMetrics {

    private final String threadName;
    private final String subscription;
    private final String groupId;
    private final int maxInFlightRecords;
    private final int maxConcurrency;
    private final SecretMasker masker;
    private final RateMeter rate = new RateMeter();

    private long polls;
    private long recordsPolled;
    private long recordsFinished;
    private long recordsFailed;
    private long recordsDeadLettered;
    private long recordsStalled;
    private long recordsRedelivered;
    private long rebalances;
    private long reconnects;
    private long backPressurePauses;
    private long skippedFinished;
    private long repeatedOffsetsSkipped;
    private long recordsRetried;
    private long recordsParked;
    private long seeks;
    private long offsetsSkipped;
    private volatile String lastSeek;
    private long lastPollTime;
    private long markedFinished;
    private int peakHeld;
    private volatile String lastError;
    private volatile long lastErrorTime;
    private volatile String deadLetterTrouble;

    public TaskMetrics(String threadName, String subscription, String groupId, int maxInFlightRecords,
                       int maxConcurrency, SecretMasker masker) {
        this.threadName = threadName;
        this.subscription = subscription;
        this.groupId = groupId;
        this.maxInFlightRecords = maxInFlightRecords;
        this.maxConcurrency = maxConcurrency;
        this.masker = masker;
    }

    /** Fetch thread: a poll returned {@code records} records. */
    public void polled(long nowMs, int records) {
        polls++;
        recordsPolled += records;
        lastPollTime = nowMs;
    }

    /**
     * Fetch thread: a record finished; {@code failed} when the route failed it, {@code deadLettered} if it is in the
     * dead-letter topic, {@code retried} if it is in a retry topic (it will be routed again from there).
     */
    public void finished(boolean failed, boolean deadLettered, boolean retried) {
        recordsFinished++;
        if (failed) {
            recordsFailed++;
        }
        if (deadLettered) {
            recordsDeadLettered++;
        }
        if (retried) {
            recordsRetried++;
        }
    }

    /** Fetch thread: marks the records finished since the last call in the rate. */
    public void markRate(long nowMs) {
        long unmarked = recordsFinished - markedFinished;
        if (unmarked > 0) {
            rate.mark(nowMs, unmarked);
            markedFinished = recordsFinished;
        }
    }

    /** Fetch thread: a poll threw. */
    public void pollFailed() {
        polls++;
    }

    /**
     * Fetch thread: a failed record (or batch) is being delivered again (breakOnFirstError, Pausable EIP). Counted as
     * re-delivered, not failed: {@code recordsFailed} counts finished records only.
     */
    public void redelivering() {
        recordsRedelivered++;
    }

    /** Fetch thread: an operator parked a record (it is dead-lettered, and counted finished once acknowledged). */
    public void parked() {
        recordsParked++;
    }

    /**
     * Fetch thread: an operator sought a partition ({@code what} says where from and to); {@code skipped} offsets of
     * it were skipped unprocessed (a forward seek), 0 for a seek back.
     */
    public void sought(long skipped, String what) {
        seeks++;
        offsetsSkipped += skipped;
        lastSeek = what;
    }

    public void stalled() {
        recordsStalled++;
    }

    public void rebalanced() {
        rebalances++;
    }

    public void reconnected() {
        reconnects++;
    }

    public void backPressurePaused() {
        backPressurePauses++;
    }

    /** Fetch thread: a polled record was not routed, the commit's offset map named it finished. */
    public void skippedFinished() {
        skippedFinished++;
    }

    /** Fetch thread: the window holds {@code held} records now. */
    /** A polled record was at an offset not after the newest one polled from its partition: skipped as held. */
    public void repeatedOffsetSkipped() {
        repeatedOffsetsSkipped++;
    }

    public void held(int held) {
        if (held > peakHeld) {
            peakHeld = held;
        }
    }

    /** Any thread: remembers an error (masked). */
    public void error(String message) {
        lastError = masker.mask(message);
        lastErrorTime = System.currentTimeMillis();
    }

    /** The error with its causes ("Failed to construct kafka consumer <- ConfigException: Invalid port ..."). */
    public void error(Throwable t) {
        StringBuilder message = new StringBuilder(t.toString());
        // bounded, as a cause chain may loop
        for (Throwable c = t.getCause(); c != null && message.length() < 1000; c = c.getCause()) {
            message.append(" <- ").append(c);
        }
        error(message.toString());
    }

    /** Any thread: why dead letters are not acknowledged, or null once they are again. */
    public void deadLetterTrouble(String trouble) {
        deadLetterTrouble = masker.mask(trouble);
        if (trouble != null) {
            error(trouble);
        }
    }

    public String lastError() {
        return lastError;
    }

    /** The group membership part of a snapshot. */
    public record Membership(String groupInstanceId, String memberId, int generation, String clientId) {
        public static final Membership NONE = new Membership(null, null, -1, null);
    }

    /** Builds the snapshot of this moment (fetch thread). */
    public TaskSnapshot snapshot(String state, Membership membership, List<PartitionSnapshot> partitions,
                                 int inFlight, int held, Dispatcher.Load load, CommitManager commits,
                                 ClientReachability reachability, long nowMs) {
        long oldest = load.oldestStartedAtNanos();
        long oldestAge = oldest == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - oldest);
        return new TaskSnapshot(threadName, state, subscription, groupId, membership.groupInstanceId(),
                membership.memberId(), membership.generation(), membership.clientId(), List.copyOf(partitions), polls,
                recordsPolled, recordsFinished, recordsFailed, recordsDeadLettered, recordsStalled, commits.commits(),
                commits.failures(), rebalances, reconnects, backPressurePauses, inFlight, held, peakHeld,
                load.running(), load.queued(), load.abandonedRunning(), maxInFlightRecords, maxConcurrency,
                lastPollTime, commits.lastCommitTimeMs(), lastError, lastErrorTime, deadLetterTrouble,
                rate.perSecond(nowMs), oldestAge, nowMs,
                reachability != null ? reachability.connectionCount() : -1,
                reachability != null ? reachability.lastResponseTime() : 0,
                reachability != null ? reachability.createdTime() : 0, skippedFinished, commits.mapsLeftOut(),
                recordsRetried, recordsRedelivered, commits.commitCalls(), commits.commitCallNanos(),
                repeatedOffsetsSkipped, recordsParked, seeks, offsetsSkipped, lastSeek);
    }
}
