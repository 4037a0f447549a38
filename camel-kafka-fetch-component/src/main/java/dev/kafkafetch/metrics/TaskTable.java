package dev.kafkafetch.metrics;

import java.util.List;
import java.util.StringJoiner;
import java.util.function.ToLongFunction;

import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;

/**
 * The fetch tasks' snapshots as JMX open data: one row per task (the consumer's {@code Tasks} attribute), and totals
 * over the tasks. JDK types only, so any JMX client (JConsole, VisualVM, Hawtio, a JMX exporter) can read it.
 * <p>
 * Guarantee: built from published snapshots only, so reading it never blocks a fetch thread nor touches a
 * KafkaConsumer; the last error is the snapshot's, whose secrets are already masked (docs/design.md §4.8).
 */
public final class TaskTable {

    private static final String[] ITEMS = {
        "task", "threadName", "state", "memberId", "assignment", "lag", "inFlight", "held", "running", "queued",
        "recordsPolled", "recordsFinished", "recordsFailed", "recordsDeadLettered", "recordsStalled",
        "recordsRetried", "recordsRedelivered", "commits", "commitFailures", "rebalances", "reconnects", "lastError",
        "lastErrorTime" };
    private static final String[] DESCRIPTIONS = {
        "Index of the fetch task (operations pauseTask and resumeTask take it)", "Name of its thread",
        "Life cycle state (RUNNING, PAUSED, RECONNECTING...)", "Group member id, empty before joining",
        "Assigned partitions (topic-partition, comma-separated)",
        "Records between fetch position and log end over its partitions, -1 while unknown",
        "Records polled and not finished", "Records held since the committable offsets (at most maxInFlightRecords)",
        "Records inside the route now", "Records waiting for their ordering lane or a free slot",
        "Records returned by poll()", "Records finished (failed and dead-lettered ones included)",
        "Finished records that failed", "Records acknowledged on the dead-letter topic",
        "Records reported as stalled", "Failed records acknowledged on a retry topic (retryDelays)",
        "Re-deliveries of failed records (breakOnFirstError, Pausable EIP)",
        "Successful offset commits", "Failed offset commits", "Partition assignments, revocations and losses",
        "Times its KafkaConsumer was created again", "Last error, secrets masked; empty when none",
        "When the last error happened (epoch ms), 0 when none" };
    private static final OpenType<?>[] TYPES = {
        SimpleType.INTEGER, SimpleType.STRING, SimpleType.STRING, SimpleType.STRING, SimpleType.STRING,
        SimpleType.LONG, SimpleType.INTEGER, SimpleType.INTEGER, SimpleType.INTEGER, SimpleType.INTEGER,
        SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.LONG,
        SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING,
        SimpleType.LONG };

    private static final CompositeType ROW;
    private static final TabularType TABLE;

    static {
        try {
            ROW = new CompositeType("KafkaFetchTask", "One kafka-fetch fetch task", ITEMS, DESCRIPTIONS, TYPES);
            TABLE = new TabularType("KafkaFetchTasks", "The fetch tasks of a kafka-fetch consumer", ROW,
                    new String[] { "task" });
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TaskTable() {
    }

    /** One row per task, keyed by its index. */
    public static TabularData of(List<TaskSnapshot> tasks) {
        TabularDataSupport table = new TabularDataSupport(TABLE);
        for (int i = 0; i < tasks.size(); i++) {
            TaskSnapshot t = tasks.get(i);
            Object[] values = {
                i, t.threadName(), t.state(), nonNull(t.memberId()), assignment(t.partitions()), t.totalLag(),
                t.inFlight(), t.held(), t.running(), t.queued(), t.recordsPolled(), t.recordsFinished(),
                t.recordsFailed(), t.recordsDeadLettered(), t.recordsStalled(), t.recordsRetried(),
                t.recordsRedelivered(), t.commits(),
                t.commitFailures(), t.rebalances(), t.reconnects(), nonNull(t.lastError()), t.lastErrorTime() };
            try {
                table.put(new CompositeDataSupport(ROW, ITEMS, values));
            } catch (OpenDataException e) {
                throw new IllegalStateException("Cannot describe fetch task " + i + " for JMX", e);
            }
        }
        return table;
    }

    /** A counter or gauge summed over the tasks. */
    public static long total(List<TaskSnapshot> tasks, ToLongFunction<TaskSnapshot> value) {
        long sum = 0;
        for (TaskSnapshot t : tasks) {
            sum += value.applyAsLong(t);
        }
        return sum;
    }

    /** The lag summed over the tasks whose lag is known, -1 when none is. */
    public static long totalLag(List<TaskSnapshot> tasks) {
        long sum = 0;
        boolean known = false;
        for (TaskSnapshot t : tasks) {
            long lag = t.totalLag();
            if (lag >= 0) {
                sum += lag;
                known = true;
            }
        }
        return known ? sum : -1;
    }

    /** The task's partitions as {@code topic-partition}, comma-separated. */
    public static String assignment(List<PartitionSnapshot> partitions) {
        StringJoiner joined = new StringJoiner(",");
        partitions.forEach(p -> joined.add(p.topic() + "-" + p.partition()));
        return joined.toString();
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
