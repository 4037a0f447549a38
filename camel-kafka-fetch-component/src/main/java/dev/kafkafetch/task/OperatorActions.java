package dev.kafkafetch.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import dev.kafkafetch.deadletter.DeadLetter;
import dev.kafkafetch.deadletter.DeadLetterFilter;
import dev.kafkafetch.deadletter.DeadLetterTopic;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator may do to one route's consumer while it runs: pause and resume one partition, seek one partition,
 * park one record, browse and replay its dead letters. The requests are handed to the fetch threads (the route's shared {@link PartitionPauses}, each
 * task's seek and park queues) and carried out by them ({@link OperatorControls}); nothing here touches a
 * KafkaConsumer (where a seek's target lies in the log is read with an admin client of its own, {@link OffsetLookup}).
 * <p>
 * Guarantees: with {@code operatorActions=false} (the default) every action is refused with an
 * {@link OperatorActionRefusedException} naming the option, and nothing changes; every request, carried out or
 * refused, is logged with who asked.
 */
public final class OperatorActions {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorActions.class);
    /** How long {@link #parkRecord} waits for the fetch threads to answer. */
    private static final long PARK_ANSWER_TIMEOUT_MS = 30_000;
    /** How the outcome of a park that dead-lettered its record begins. */
    public static final String PARKED = "parked ";

    private final String routeId;
    private final boolean enabled;
    private final String deadLetterTopic;
    private final boolean batching;
    private final PartitionPauses pauses;
    private final Supplier<List<KafkaFetchRecords>> tasks;
    private final OffsetLookup offsets;
    private final DeadLetterTopic deadLetters;

    /**
     * @param deadLetterTopic null without one (parking is refused then)
     * @param tasks           the consumer's current fetch tasks
     * @param offsets         where partitions begin and end, and which offset a time falls on (for seeks)
     * @param deadLetters     the route's dead-letter topic to browse and replay, null without one
     */
    public OperatorActions(String routeId, boolean enabled, String deadLetterTopic, boolean batching,
                           PartitionPauses pauses, Supplier<List<KafkaFetchRecords>> tasks, OffsetLookup offsets,
                           DeadLetterTopic deadLetters) {
        this.offsets = offsets;
        this.deadLetters = deadLetters;
        this.routeId = routeId;
        this.enabled = enabled;
        this.deadLetterTopic = deadLetterTopic;
        this.batching = batching;
        this.pauses = pauses;
        this.tasks = tasks;
    }

    public boolean enabled() {
        return enabled;
    }

    public PartitionPauses pauses() {
        return pauses;
    }

    /** Pauses one partition (see {@link PartitionPauses}); returns what was done. */
    public String pausePartition(String topic, int partition, String requestedBy) {
        TopicPartition tp = partitionOf(topic, partition);
        check("pausePartition " + tp, requestedBy);
        boolean paused = pauses.pause(tp, requestedBy);
        tasks.get().forEach(KafkaFetchRecords::partitionPausesChanged);
        String outcome = paused ? "pausing " + tp + where(tp) : tp + " is paused already (by "
                                                                + pauses.requestedBy(tp) + ")";
        LOG.info("Route {}: {} asked to pause {}: {}", routeId, requestedBy, tp, outcome);
        return outcome;
    }

    /** Resumes a partition paused by {@link #pausePartition}; returns what was done. */
    public String resumePartition(String topic, int partition, String requestedBy) {
        TopicPartition tp = partitionOf(topic, partition);
        check("resumePartition " + tp, requestedBy);
        boolean resumed = pauses.resume(tp);
        tasks.get().forEach(KafkaFetchRecords::partitionPausesChanged);
        String outcome = resumed ? "resuming " + tp + where(tp) : tp + " was not paused by an operator";
        LOG.info("Route {}: {} asked to resume {}: {}", routeId, requestedBy, tp, outcome);
        return outcome;
    }

    /**
     * Parks the unfinished record at that offset: the fetch task holding it takes it out of the route and
     * dead-letters it with reason {@code parked}; it counts finished once the broker acknowledged the letter. Waits for
     * the fetch thread's answer (not for the acknowledgement). Every task of the consumer also gives up on executions
     * of that record still running from before a rebalance (they keep a slot, and a lane, until they return): the
     * outcome then says so; it begins with {@value #PARKED} only when the record itself was parked here.
     *
     * @throws IllegalArgumentException when no task of this consumer holds that partition, or that record unfinished
     * @throws IllegalStateException    when the record cannot be parked now (finishing already, in a batch...)
     */
    public String parkRecord(String topic, int partition, long offset, String requestedBy) {
        TopicPartition tp = partitionOf(topic, partition);
        check("parkRecord " + tp + "@" + offset, requestedBy);
        if (deadLetterTopic == null) {
            throw refused("parkRecord " + tp + "@" + offset, requestedBy,
                    "parking needs a dead-letter topic (deadLetterTopic) to put the record in");
        }
        if (batching) {
            throw refused("parkRecord " + tp + "@" + offset, requestedBy,
                    "a record of a batch cannot be parked (batching=true): a batch is handled as a whole");
        }
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (KafkaFetchRecords task : tasks.get()) {
            answers.add(task.requestPark(tp, offset, requestedBy));
        }
        long deadline = System.currentTimeMillis() + PARK_ANSWER_TIMEOUT_MS;
        String parked = null;
        StringJoiner others = new StringJoiner("; ");
        for (CompletableFuture<String> answer : answers) {
            String done;
            try {
                done = answer.get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                LOG.warn("Route {}: {} asked to park {}@{}: refused: {}", routeId, requestedBy, tp, offset,
                        e.getCause().getMessage());
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("Route " + routeId + ": no answer from its fetch tasks within "
                                                + PARK_ANSWER_TIMEOUT_MS + " ms; " + tp + "@" + offset
                                                + " may still be parked");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting to park " + tp + "@" + offset, e);
            }
            if (done != null && done.startsWith(PARKED)) {
                parked = done;
            } else if (done != null) {
                others.add(done);
            }
        }
        String outcome = parked != null ? parked + (others.length() > 0 ? "; " + others : "")
                : others.length() > 0 ? others + "; " + tp + " is not assigned to this consumer now: park it on the"
                                        + " member that holds it to dead-letter it"
                        : null;
        if (outcome == null) {
            String msg = "Cannot park " + tp + "@" + offset + ": " + tp + " is not assigned to a fetch task of route "
                         + routeId + " now";
            LOG.warn("Route {}: {} asked to park {}@{}: refused: {}", routeId, requestedBy, tp, offset, msg);
            throw new IllegalArgumentException(msg);
        }
        LOG.info("Route {}: {} asked to park {}@{}: {}", routeId, requestedBy, tp, offset, outcome);
        return outcome;
    }

    /**
     * Seeks one partition to {@code offset}, carried out by the fetch thread of the task that holds it (see
     * {@link PartitionSeeks}): back, the records from there on are delivered again; forward, the offsets between are
     * skipped unprocessed, which is refused unless {@code confirmSkip}. The partition's next commit is the target.
     * Waits for the fetch thread's answer.
     *
     * @throws OperatorActionRefusedException when actions are off, or a forward seek is not confirmed
     * @throws IllegalArgumentException       when the offset is outside the partition's log, or no task of this
     *                                        consumer holds the partition
     */
    public String seekPartition(String topic, int partition, long offset, boolean confirmSkip, String requestedBy) {
        TopicPartition tp = partitionOf(topic, partition);
        String action = "seekPartition " + tp + " to offset " + offset;
        check(action, requestedBy);
        OffsetLookup.Range range = offsets.range(tp);
        if (offset < range.start() || offset > range.end()) {
            String msg = "Cannot seek " + tp + " to offset " + offset + ": its log holds offsets " + range.start()
                         + " to " + range.end() + " (the end: the next record written)";
            LOG.warn("Route {}: {} asked to {}: refused: {}", routeId, requestedBy, action, msg);
            throw new IllegalArgumentException(msg);
        }
        return seek(tp, offset, "offset " + offset, confirmSkip, requestedBy);
    }

    /**
     * Seeks one partition to the first record at or after {@code time} (its log end when there is none), as
     * {@link #seekPartition}.
     */
    public String seekPartitionToTime(String topic, int partition, Instant time, boolean confirmSkip,
                                      String requestedBy) {
        TopicPartition tp = partitionOf(topic, partition);
        if (time == null) {
            throw new IllegalArgumentException("A seek to a time needs the time");
        }
        check("seekPartitionToTime " + tp + " to " + time, requestedBy);
        long offset = offsets.offsetForTime(tp, time.toEpochMilli());
        return seek(tp, offset, "time " + time + " (offset " + offset + ")", confirmSkip, requestedBy);
    }

    private String seek(TopicPartition tp, long offset, String asked, boolean confirmSkip, String requestedBy) {
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (KafkaFetchRecords task : tasks.get()) {
            answers.add(task.requestSeek(tp, offset, asked, confirmSkip, requestedBy));
        }
        String done = null;
        long deadline = System.currentTimeMillis() + PARK_ANSWER_TIMEOUT_MS;
        for (CompletableFuture<String> answer : answers) {
            String outcome = await(answer, deadline, "seek " + tp + " to " + asked, requestedBy);
            done = outcome != null ? outcome : done;
        }
        if (done == null) {
            String msg = "Cannot seek " + tp + ": it is not assigned to a fetch task of route " + routeId
                         + " now (seek it on the member that holds it)";
            LOG.warn("Route {}: {} asked to seek {} to {}: refused: {}", routeId, requestedBy, tp, asked, msg);
            throw new IllegalArgumentException(msg);
        }
        LOG.info("Route {}: {} asked to seek {} to {}: {}", routeId, requestedBy, tp, asked, done);
        return done;
    }

    /** A fetch thread's answer; its refusal is logged and thrown as it is. */
    private String await(CompletableFuture<String> answer, long deadline, String action, String requestedBy) {
        try {
            return answer.get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            LOG.warn("Route {}: {} asked to {}: refused: {}", routeId, requestedBy, action, e.getCause().getMessage());
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Route " + routeId + ": no answer from its fetch tasks within "
                                            + PARK_ANSWER_TIMEOUT_MS + " ms; the " + action + " may still happen");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to " + action, e);
        }
    }

    /** The paused partitions as {@code topic-partition (by who)}, comma-separated; empty when none. */
    public String pausedPartitions() {
        StringJoiner joined = new StringJoiner(", ");
        for (Map.Entry<TopicPartition, String> e : pauses.partitions().entrySet()) {
            joined.add(e.getKey() + " (by " + e.getValue() + ")");
        }
        return joined.toString();
    }

    /**
     * The letters of the route's dead-letter topic that match (provenance, key, value size; never the value). Reading:
     * allowed with operatorActions off.
     *
     * @throws OperatorActionRefusedException without a deadLetterTopic
     */
    public List<DeadLetter> listDeadLetters(DeadLetterFilter filter) {
        return deadLetters("listDeadLetters", "a reader").list(filter);
    }

    /**
     * Replays the matching letters of the route's dead-letter topic to their original topic ({@code targetTopic}
     * null) or to {@code targetTopic}; a letter replayed before is not replayed again (see {@link DeadLetterTopic}).
     *
     * @throws OperatorActionRefusedException unless operatorActions=true and a deadLetterTopic
     * @throws IllegalStateException          when the replay failed (nothing of it was replayed)
     */
    public DeadLetterTopic.ReplayResult replayDeadLetters(DeadLetterFilter filter, String targetTopic,
                                                          String requestedBy) {
        String action = "replayDeadLetters " + (filter != null ? filter : DeadLetterFilter.ALL);
        check(action, requestedBy);
        return deadLetters(action, requestedBy).replay(filter, targetTopic, requestedBy); // logged there
    }

    private DeadLetterTopic deadLetters(String action, String requestedBy) {
        if (deadLetters == null) {
            throw refused(action, requestedBy, "the route has no dead-letter topic (deadLetterTopic)");
        }
        return deadLetters;
    }

    /** A time as ISO-8601 ({@code 2026-12-02T10:15:30Z}) or epoch milliseconds. */
    public static Instant parseTime(String time) {
        if (time == null || time.isBlank()) {
            throw new IllegalArgumentException("A seek to a time needs the time (ISO-8601 or epoch milliseconds)");
        }
        String t = time.trim();
        try {
            return t.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(t)) : Instant.parse(t);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a time: " + time + " (ISO-8601 such as 2026-12-02T10:15:30Z, or"
                                               + " epoch milliseconds)");
        }
    }

    private String where(TopicPartition tp) {
        for (KafkaFetchRecords task : tasks.get()) {
            if (task.snapshot().partitions().stream()
                    .anyMatch(p -> p.topic().equals(tp.topic()) && p.partition() == tp.partition())) {
                return " on fetch task " + task.threadName();
            }
        }
        return " (not assigned to this consumer now: paused as soon as it is)";
    }

    private void check(String action, String requestedBy) {
        if (!enabled) {
            throw refused(action, requestedBy, "operator actions are off for this route; enable them with the"
                                               + " endpoint option operatorActions=true (or, for every route,"
                                               + " camel.component.kafka-fetch.operatorActions=true)");
        }
    }

    private OperatorActionRefusedException refused(String action, String requestedBy, String why) {
        String msg = "kafka-fetch route " + routeId + ": " + action + " refused: " + why;
        LOG.warn("{} (asked by {})", msg, requestedBy);
        return new OperatorActionRefusedException(msg);
    }

    private static TopicPartition partitionOf(String topic, int partition) {
        if (topic == null || topic.isBlank() || partition < 0) {
            throw new IllegalArgumentException("A partition is named by a topic and a partition number >= 0, not "
                                               + topic + " and " + partition);
        }
        return new TopicPartition(topic, partition);
    }
}
