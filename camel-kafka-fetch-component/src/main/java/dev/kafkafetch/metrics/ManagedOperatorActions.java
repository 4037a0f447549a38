package dev.kafkafetch.metrics;

import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;

/**
 * The JMX face of an operator's actions on a kafka-fetch consumer (added to Camel's consumer MBean beside
 * {@link ManagedFetchTasks}). Each operation is refused, with an error naming the option, unless the route enables
 * {@code operatorActions}; each is logged with the JMX principal that asked. Errors reach the JMX client as JDK
 * exceptions with the reason as message, so any client can show them.
 */
public interface ManagedOperatorActions {

    @ManagedAttribute(description = "Whether operators may pause partitions and park records on this consumer"
                                    + " (the endpoint option operatorActions)")
    boolean getOperatorActionsEnabled();

    @ManagedAttribute(description = "Partitions paused by an operator, and who asked (kept across rebalances while"
                                    + " this consumer runs)")
    String getPausedPartitions();

    @ManagedOperation(description = "Pauses one partition (topic, partition): nothing more of it is fetched or started,"
                                    + " records in the route finish, other partitions go on; it stays paused when it"
                                    + " comes back to this consumer after a rebalance. Needs operatorActions=true")
    String pausePartition(String topic, int partition);

    @ManagedOperation(description = "Resumes a partition paused by pausePartition. Needs operatorActions=true")
    String resumePartition(String topic, int partition);

    @ManagedOperation(description = "Parks the unfinished record at (topic, partition, offset), running or waiting:"
                                    + " it is taken out of the route and dead-lettered now with reason parked, and"
                                    + " counts finished once acknowledged, so its partition commits past it. Needs"
                                    + " operatorActions=true and a deadLetterTopic")
    String parkRecord(String topic, int partition, long offset);

    @ManagedOperation(description = "Seeks one partition (topic, partition) to an offset, on the fetch thread that"
                                    + " holds it. Back: records from there on are delivered again. Forward: the offsets"
                                    + " between are skipped unprocessed, refused unless confirmSkip is true. The"
                                    + " partition's next commit is the offset. Needs operatorActions=true")
    String seekPartition(String topic, int partition, long offset, boolean confirmSkip);

    @ManagedOperation(description = "Seeks one partition (topic, partition) to the first record at or after a time"
                                    + " (ISO-8601 such as 2026-12-02T10:15:30Z, or epoch milliseconds), as"
                                    + " seekPartition. Needs operatorActions=true")
    String seekPartitionToTime(String topic, int partition, String time, boolean confirmSkip);

    @ManagedOperation(description = "Lists the route's dead letters that match a filter (name=value pairs separated"
                                    + " by commas: topic, partition, fromOffset, toOffset, offset, reason, exception,"
                                    + " since, until, limit; empty = all): their provenance, key and value size")
    String listDeadLetters(String filter);

    @ManagedOperation(description = "Replays the route's dead letters that match a filter (as listDeadLetters) to"
                                    + " their original topic (targetTopic empty) or to targetTopic, each with replay"
                                    + " headers; letters replayed before are not replayed again (the replay log topic"
                                    + " <deadLetterTopic>.replays). Needs operatorActions=true")
    String replayDeadLetters(String filter, String targetTopic);
}
