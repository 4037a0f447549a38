package dev.kafkafetch.commit;

import dev.kafkafetch.processor.WorkItem;

/** The record a manual commit is about, and the way to its fetch thread. */
public abstract class AbstractKafkaManualCommit implements KafkaManualCommit {

    protected final WorkItem item;
    protected final ManualCommitGateway gateway;

    protected AbstractKafkaManualCommit(WorkItem item, ManualCommitGateway gateway) {
        this.item = item;
        this.gateway = gateway;
    }

    @Override
    public String getTopic() {
        return item.topic();
    }

    @Override
    public int getPartition() {
        return item.partition();
    }

    @Override
    public long getRecordOffset() {
        return item.offset();
    }

    @Override
    public String toString() {
        return "KafkaManualCommit[" + item + "]";
    }
}
