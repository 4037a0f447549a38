package dev.kafkafetch.metrics;

import java.util.List;

import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;

/**
 * The fetch tasks' assigned partitions as JMX open data (the consumer's {@code Partitions} attribute): one row per
 * task and partition, with what the partition is stuck on (its oldest unfinished record). JDK types only.
 * <p>
 * Guarantee: built from published snapshots only, so reading it never blocks a fetch thread nor touches a
 * KafkaConsumer.
 */
public final class PartitionTable {

    private static final String[] ITEMS = {
        "task", "topic", "partition", "paused", "committed", "committable", "lag", "inFlight", "held",
        "oldestOffset", "oldestKey", "oldestAttempt", "oldestState", "oldestAgeMs", "oldestRunningMs",
        "oldestThread", "oldestThreadState", "waitingBehind", "aheadOffset", "aheadState", "aheadRunningMs",
        "aheadThread" };
    private static final String[] DESCRIPTIONS = {
        "Index of the fetch task", "Topic", "Partition",
        "Why it is paused (user, listener, back-pressure, operator, retry-delay, window-share), empty when it is not",
        "Last committed offset known to the task, -1 when none", "First unfinished offset (what the next commit"
                                                                 + " writes), -1 when none",
        "Records between fetch position and log end, -1 while unknown", "Records polled and not finished",
        "Records held since the committable offset", "Offset of its oldest unfinished record, -1 when none",
        "Key of that record as text, empty when none", "Its delivery attempt, 0 when none",
        "Its state: queued, held, starting, running, async, batched, completing, dead-lettering, stalled, dropped; empty when none",
        "Milliseconds since it was polled", "Milliseconds it has been in the route, 0 when not running",
        "Worker thread running it, empty when not running", "That thread's state, empty when not running",
        "With ordering=KEY, records queued behind it in its key lane; -1 otherwise",
        "Offset of the record it waits behind in its lane (an execution still running from before a seek back or a"
                                                                                     + " rebalance), -1 when none",
        "That record's state, empty when none", "Milliseconds that record has been in the route, 0 when not running",
        "Worker thread running that record, empty when not running" };
    private static final OpenType<?>[] TYPES = {
        SimpleType.INTEGER, SimpleType.STRING, SimpleType.INTEGER, SimpleType.STRING, SimpleType.LONG,
        SimpleType.LONG, SimpleType.LONG, SimpleType.INTEGER, SimpleType.INTEGER, SimpleType.LONG, SimpleType.STRING,
        SimpleType.INTEGER, SimpleType.STRING, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING,
        SimpleType.STRING, SimpleType.INTEGER, SimpleType.LONG, SimpleType.STRING, SimpleType.LONG,
        SimpleType.STRING };

    private static final CompositeType ROW;
    private static final TabularType TABLE;

    static {
        try {
            ROW = new CompositeType("KafkaFetchPartition", "One partition of a kafka-fetch fetch task", ITEMS,
                    DESCRIPTIONS, TYPES);
            TABLE = new TabularType("KafkaFetchPartitions", "The assigned partitions of a kafka-fetch consumer", ROW,
                    new String[] { "task", "topic", "partition" });
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PartitionTable() {
    }

    public static TabularData of(List<TaskSnapshot> tasks) {
        TabularDataSupport table = new TabularDataSupport(TABLE);
        for (int i = 0; i < tasks.size(); i++) {
            for (PartitionSnapshot p : tasks.get(i).partitions()) {
                OldestUnfinished o = p.oldestUnfinished();
                OldestUnfinished.LaneHead ahead = o != null ? o.waitsBehind() : null;
                Object[] values = {
                    i, p.topic(), p.partition(), nonNull(p.pausedReason()), p.committed(), p.committable(), p.lag(),
                    p.inFlight(), p.held(), o != null ? o.offset() : -1L, o != null ? nonNull(o.key()) : "",
                    o != null ? o.attempt() : 0, o != null ? o.state() : "", o != null ? o.ageMs() : 0L,
                    o != null ? o.runningMs() : 0L, o != null ? nonNull(o.thread()) : "",
                    o != null ? nonNull(o.threadState()) : "", o != null ? o.waitingBehind() : -1,
                    ahead != null ? ahead.offset() : -1L, ahead != null ? ahead.state() : "",
                    ahead != null ? ahead.runningMs() : 0L, ahead != null ? nonNull(ahead.thread()) : "" };
                try {
                    table.put(new CompositeDataSupport(ROW, ITEMS, values));
                } catch (OpenDataException e) {
                    throw new IllegalStateException("Cannot describe " + p.topic() + "-" + p.partition() + " for JMX",
                            e);
                }
            }
        }
        return table;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
