package dev.kafkafetch.commit;

import dev.kafkafetch.processor.WorkItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asynchronous manual commits: {@code commit()} returns at once; a failure is logged at WARN. */
public class DefaultKafkaManualAsyncCommitFactory implements KafkaManualCommitFactory {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultKafkaManualAsyncCommitFactory.class);

    @Override
    public KafkaManualCommit newInstance(WorkItem item, ManualCommitGateway gateway) {
        return new AbstractKafkaManualCommit(item, gateway) {
            @Override
            public void commit() {
                gateway.requestCommit(item).whenComplete((offset, error) -> {
                    if (error != null) {
                        LOG.warn("Asynchronous manual commit of {} failed: {}", item, error.toString());
                    }
                });
            }
        };
    }
}
