package dev.kafkafetch.compat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.kafkafetch.commit.KafkaManualCommit;
import dev.kafkafetch.commit.KafkaManualCommitFactory;
import dev.kafkafetch.commit.ManualCommitTarget;
import org.apache.camel.Exchange;
import org.apache.camel.component.kafka.consumer.CommitManager;
import org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory.CamelExchangePayload;
import org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory.KafkaRecordPayload;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * A camel-kafka {@code KafkaManualCommitFactory} (its default ones, or a subclass) used as {@code kafkaManualCommitFactory}
 * of a kafka-fetch route. Its commits go through kafka-fetch: {@code forceCommit} (camel-kafka's synchronous commit)
 * waits for the broker, bounded by commitTimeoutMs; {@code commit} (its asynchronous one) only asks. Either way the
 * fetch thread commits, never past an unfinished record. The payload has no exchange, consumer or offset repository:
 * kafka-fetch never hands its consumer out.
 */
final class CamelKafkaManualCommitFactoryAdapter implements KafkaManualCommitFactory {

    private final org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory factory;

    CamelKafkaManualCommitFactoryAdapter(org.apache.camel.component.kafka.consumer.KafkaManualCommitFactory factory) {
        this.factory = factory;
    }

    @Override
    public KafkaManualCommit newInstance(ManualCommitTarget target) {
        TopicPartition partition = new TopicPartition(target.topic(), target.partition());
        org.apache.camel.component.kafka.consumer.KafkaManualCommit commit = factory.newInstance(
                new CamelExchangePayload(null, null, null, null),
                new KafkaRecordPayload(partition, target.offset(), target.commitTimeoutMs()),
                new TargetCommitManager(target));
        return new BothKafkaManualCommit(target, commit::commit);
    }

    /** camel-kafka's commit manager calls, carried out by kafka-fetch's fetch thread. */
    private static final class TargetCommitManager implements CommitManager {
        private final ManualCommitTarget target;

        TargetCommitManager(ManualCommitTarget target) {
            this.target = target;
        }

        @Override
        public org.apache.camel.component.kafka.consumer.KafkaManualCommit getManualCommit(
                                                                                           Exchange exchange,
                                                                                           TopicPartition partition,
                                                                                           ConsumerRecord<Object, Object> consumerRecord) {
            throw new UnsupportedOperationException("kafka-fetch creates the manual commits itself");
        }

        @Override
        public void commit() {
            target.commit();
        }

        @Override
        public void commit(TopicPartition partition) {
            target.commit();
        }

        @Override
        public void forceCommit(TopicPartition partition, long partitionLastOffset) {
            await(target.commit());
        }

        @Override
        public void recordOffset(TopicPartition partition, long partitionLastOffset) {
            // kafka-fetch knows which records finished
        }

        private void await(CompletableFuture<Long> commit) {
            try {
                commit.get(target.commitTimeoutMs() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while committing " + target, e);
            } catch (ExecutionException e) {
                throw new KafkaException("Commit of " + target + " failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new KafkaException("Commit of " + target + " not answered within " + target.commitTimeoutMs()
                                         + " ms",
                        e);
            }
        }
    }
}
