package dev.kafkafetch.commit;

/** Creates the {@link KafkaManualCommit} put on each exchange when {@code allowManualCommit=true}. */
public interface KafkaManualCommitFactory {

    KafkaManualCommit newInstance(ManualCommitTarget target);
}
