package dev.kafkafetch.commit;

import dev.kafkafetch.processor.WorkItem;

/** Creates the {@link KafkaManualCommit} put on each exchange when {@code allowManualCommit=true}. */
public interface KafkaManualCommitFactory {

    KafkaManualCommit newInstance(WorkItem item, ManualCommitGateway gateway);
}
