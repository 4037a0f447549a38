package dev.kafkafetch.commit;

/** A manual commit of one record, carried out through its {@link ManualCommitTarget}. */
public abstract class AbstractKafkaManualCommit implements KafkaManualCommit {

    protected final ManualCommitTarget target;

    protected AbstractKafkaManualCommit(ManualCommitTarget target) {
        this.target = target;
    }

    @Override
    public String getTopic() {
        return target.topic();
    }

    @Override
    public int getPartition() {
        return target.partition();
    }

    @Override
    public long getRecordOffset() {
        return target.offset();
    }

    @Override
    public String toString() {
        return "KafkaManualCommit[" + target + "]";
    }
}
