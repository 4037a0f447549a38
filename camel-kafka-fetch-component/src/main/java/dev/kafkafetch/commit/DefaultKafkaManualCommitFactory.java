package dev.kafkafetch.commit;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.kafkafetch.processor.WorkItem;
import org.apache.camel.RuntimeCamelException;

/** Synchronous manual commits: {@code commit()} returns once the broker acknowledged, or throws. The default. */
public class DefaultKafkaManualCommitFactory implements KafkaManualCommitFactory {

    @Override
    public KafkaManualCommit newInstance(WorkItem item, ManualCommitGateway gateway) {
        return new Sync(item, gateway);
    }

    static class Sync extends AbstractKafkaManualCommit {
        Sync(WorkItem item, ManualCommitGateway gateway) {
            super(item, gateway);
        }

        @Override
        public void commit() {
            try {
                gateway.requestCommit(item).get(gateway.commitTimeoutMs() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeCamelException("Interrupted while committing " + item, e);
            } catch (ExecutionException e) {
                throw new RuntimeCamelException("Manual commit of " + item + " failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new RuntimeCamelException("Manual commit of " + item + " timed out", e);
            }
        }
    }
}
