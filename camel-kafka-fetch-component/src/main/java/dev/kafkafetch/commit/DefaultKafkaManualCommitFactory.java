package dev.kafkafetch.commit;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.camel.RuntimeCamelException;

/** Synchronous manual commits: {@code commit()} returns once the broker acknowledged, or throws. The default. */
public class DefaultKafkaManualCommitFactory implements KafkaManualCommitFactory {

    @Override
    public KafkaManualCommit newInstance(ManualCommitTarget target) {
        return new Sync(target);
    }

    static class Sync extends AbstractKafkaManualCommit {
        Sync(ManualCommitTarget target) {
            super(target);
        }

        @Override
        public void commit() {
            try {
                target.commit().get(target.commitTimeoutMs() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeCamelException("Interrupted while committing " + target, e);
            } catch (ExecutionException e) {
                throw new RuntimeCamelException("Manual commit of " + target + " failed: " + e.getCause(),
                        e.getCause());
            } catch (TimeoutException e) {
                throw new RuntimeCamelException("Manual commit of " + target + " timed out", e);
            }
        }
    }
}
