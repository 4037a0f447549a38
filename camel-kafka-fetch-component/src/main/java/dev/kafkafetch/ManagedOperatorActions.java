package dev.kafkafetch;

import java.util.List;
import java.util.StringJoiner;
import java.util.function.Supplier;

import dev.kafkafetch.deadletter.DeadLetter;
import dev.kafkafetch.deadletter.DeadLetterFilter;
import dev.kafkafetch.metrics.JmxCaller;
import dev.kafkafetch.metrics.ManagedFetchTasks;
import dev.kafkafetch.task.OperatorActions;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;

/**
 * The JMX face of an operator's actions on a kafka-fetch consumer (added to Camel's consumer MBean beside
 * {@link ManagedFetchTasks}). Each operation is refused, with an error naming the option, unless the route enables
 * {@code operatorActions}; each is logged with the JMX principal that asked. Errors reach the JMX client as JDK
 * exceptions with the reason as message, so any client can show them. Every operation is the consumer's
 * {@link #operatorActions()} with the JMX caller as who asked.
 */
public interface ManagedOperatorActions {

    @ManagedAttribute(description = "Whether operators may pause partitions and park records on this consumer"
                                    + " (the endpoint option operatorActions)")
    default boolean getOperatorActionsEnabled() {
        return operatorActions().enabled();
    }

    @ManagedAttribute(description = "Partitions paused by an operator, and who asked (kept across rebalances while"
                                    + " this consumer runs)")
    default String getPausedPartitions() {
        return operatorActions().pausedPartitions();
    }

    @ManagedOperation(description = "Pauses one partition (topic, partition): nothing more of it is fetched or started,"
                                    + " records in the route finish, other partitions go on; it stays paused when it"
                                    + " comes back to this consumer after a rebalance. Needs operatorActions=true")
    default String pausePartition(String topic, int partition) {
        return jmx(() -> operatorActions().pausePartition(topic, partition, JmxCaller.describe()));
    }

    @ManagedOperation(description = "Resumes a partition paused by pausePartition. Needs operatorActions=true")
    default String resumePartition(String topic, int partition) {
        return jmx(() -> operatorActions().resumePartition(topic, partition, JmxCaller.describe()));
    }

    @ManagedOperation(description = "Parks the unfinished record at (topic, partition, offset), running or waiting:"
                                    + " it is taken out of the route and dead-lettered now with reason parked, and"
                                    + " counts finished once acknowledged, so its partition commits past it. Needs"
                                    + " operatorActions=true and a deadLetterTopic")
    default String parkRecord(String topic, int partition, long offset) {
        return jmx(() -> operatorActions().parkRecord(topic, partition, offset, JmxCaller.describe()));
    }

    @ManagedOperation(description = "Seeks one partition (topic, partition) to an offset, on the fetch thread that"
                                    + " holds it. Back: records from there on are delivered again. Forward: the offsets"
                                    + " between are skipped unprocessed, refused unless confirmSkip is true. The"
                                    + " partition's next commit is the offset. Needs operatorActions=true")
    default String seekPartition(String topic, int partition, long offset, boolean confirmSkip) {
        return jmx(() -> operatorActions().seekPartition(topic, partition, offset, confirmSkip, JmxCaller.describe()));
    }

    @ManagedOperation(description = "Seeks one partition (topic, partition) to the first record at or after a time"
                                    + " (ISO-8601 such as 2026-12-02T10:15:30Z, or epoch milliseconds), as"
                                    + " seekPartition. Needs operatorActions=true")
    default String seekPartitionToTime(String topic, int partition, String time, boolean confirmSkip) {
        return jmx(() -> operatorActions().seekPartitionToTime(topic, partition, OperatorActions.parseTime(time),
                confirmSkip, JmxCaller.describe()));
    }

    @ManagedOperation(description = "Lists the route's dead letters that match a filter (name=value pairs separated"
                                    + " by commas: topic, partition, fromOffset, toOffset, offset, reason, exception,"
                                    + " since, until, limit; empty = all): their provenance, key and value size")
    default String listDeadLetters(String filter) {
        return jmx(() -> {
            StringJoiner lines = new StringJoiner("\n");
            List<DeadLetter> letters = operatorActions().listDeadLetters(DeadLetterFilter.parse(filter));
            letters.forEach(l -> lines.add(l.toString()));
            return letters.size() + " letter(s)" + (letters.isEmpty() ? "" : ":\n" + lines);
        });
    }

    @ManagedOperation(description = "Replays the route's dead letters that match a filter (as listDeadLetters) to"
                                    + " their original topic (targetTopic empty) or to targetTopic, each with replay"
                                    + " headers; letters replayed before are not replayed again (the replay log topic"
                                    + " <deadLetterTopic>.replays). Needs operatorActions=true")
    default String replayDeadLetters(String filter, String targetTopic) {
        return jmx(() -> operatorActions().replayDeadLetters(DeadLetterFilter.parse(filter),
                targetTopic == null || targetTopic.isBlank() ? null : targetTopic, JmxCaller.describe()).summary());
    }

    /** The consumer's operator actions, which every operation above calls. */
    OperatorActions operatorActions();

    /** Runs an operation, turning its errors into JDK exception types that every JMX client can show. */
    private static String jmx(Supplier<String> action) {
        try {
            return action.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (RuntimeException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }
}
