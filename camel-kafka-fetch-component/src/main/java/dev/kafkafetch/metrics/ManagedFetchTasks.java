package dev.kafkafetch.metrics;

import java.util.List;

import javax.management.openmbean.TabularData;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;

/**
 * The JMX view of a consumer's fetch tasks. Camel's management (camel-management) reads these annotations on the
 * interfaces of a {@code @ManagedResource} consumer and adds them to the consumer's MBean, beside Camel's own consumer
 * attributes: attribute {@code Tasks} (one row per task, see {@link TaskTable}), totals over the tasks, and operations
 * {@code pauseTask} and {@code resumeTask}.
 * <p>
 * Guarantee: every attribute is computed from {@link #taskSnapshots()}, the tasks' published snapshots, so a JMX
 * client never blocks a fetch thread nor touches a KafkaConsumer; last errors are the snapshots', already masked.
 */
public interface ManagedFetchTasks {

    /** The latest snapshot of every fetch task, in task order. */
    List<TaskSnapshot> taskSnapshots();

    @ManagedOperation(description = "Pauses one fetch task (its index in Tasks): it starts no record and pauses its"
                                    + " partitions, but keeps polling, so it stays in its group; records in the route"
                                    + " finish. Until resumeTask, or a suspend and resume of the route")
    void pauseTask(int task);

    @ManagedOperation(description = "Resumes a fetch task paused by pauseTask (its index in Tasks)")
    void resumeTask(int task);

    @ManagedAttribute(description = "Number of fetch tasks running (while started: consumersCount; for kafka-fetch-share times consumersPerWindow)")
    default int getTaskCount() {
        return taskSnapshots().size();
    }

    @ManagedAttribute(description = "Every fetch task: state, assignment, lag, in-flight, held, running and queued"
                                    + " records, counters, last error (secrets masked)")
    default TabularData getTasks() {
        return TaskTable.of(taskSnapshots());
    }

    @ManagedAttribute(description = "Every assigned partition of every fetch task: offsets, lag, why it is paused, and"
                                    + " what it is stuck on (its oldest unfinished record: offset, key, attempt, state,"
                                    + " age, worker thread; with ordering=KEY the records waiting behind it)")
    default TabularData getPartitions() {
        return PartitionTable.of(taskSnapshots());
    }

    @ManagedAttribute(description = "Records between the fetch positions and the log ends, over all tasks; -1 while"
                                    + " unknown")
    default long getLag() {
        return TaskTable.totalLag(taskSnapshots());
    }

    @ManagedAttribute(description = "Records polled and not finished, over all tasks")
    default long getInFlight() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::inFlight);
    }

    @ManagedAttribute(description = "Records held since the committable offsets, finished or not, over all tasks")
    default long getHeld() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::held);
    }

    @ManagedAttribute(description = "Records finished (failed and dead-lettered ones included), over all tasks")
    default long getRecordsFinished() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsFinished);
    }

    @ManagedAttribute(description = "Finished records that failed, over all tasks")
    default long getRecordsFailed() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsFailed);
    }

    @ManagedAttribute(description = "Records acknowledged on the dead-letter topic, over all tasks")
    default long getRecordsDeadLettered() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsDeadLettered);
    }

    @ManagedAttribute(description = "Records reported as stalled, over all tasks")
    default long getRecordsStalled() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsStalled);
    }

    @ManagedAttribute(description = "Failed records acknowledged on a retry topic (retryDelays), over all tasks")
    default long getRecordsRetried() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsRetried);
    }

    @ManagedAttribute(description = "Re-deliveries of failed records (breakOnFirstError, Pausable EIP), over all tasks")
    default long getRecordsRedelivered() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::recordsRedelivered);
    }

    @ManagedAttribute(description = "Partition assignments, revocations and losses, over all tasks")
    default long getRebalances() {
        return TaskTable.total(taskSnapshots(), TaskSnapshot::rebalances);
    }
}
