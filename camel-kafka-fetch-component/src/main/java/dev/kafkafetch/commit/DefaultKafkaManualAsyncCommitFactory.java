package dev.kafkafetch.commit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asynchronous manual commits: {@code commit()} returns at once; a failure is logged at WARN. */
public class DefaultKafkaManualAsyncCommitFactory implements KafkaManualCommitFactory {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultKafkaManualAsyncCommitFactory.class);

    @Override
    public KafkaManualCommit newInstance(ManualCommitTarget target) {
        return new AbstractKafkaManualCommit(target) {
            @Override
            public void commit() {
                target.commit().whenComplete((offset, error) -> {
                    if (error != null) {
                        LOG.warn("Asynchronous manual commit of {} failed: {}", target, error.toString());
                    }
                });
            }
        };
    }
}
