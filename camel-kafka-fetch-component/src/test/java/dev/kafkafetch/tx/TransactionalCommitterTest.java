package dev.kafkafetch.tx;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record's outputs join a transaction only when its offsets count the record finished: below the committed offset,
 * or named by the offset map committed with it; an aborted transaction hands its partitions back and commits nothing
 * until they were read again; a fenced producer commits nothing more.
 */
class TransactionalCommitterTest {

    private final TopicPartition tp = new TopicPartition("in", 0);
    private MockProducer<byte[], byte[]> producer;
    private TransactionalCommitter committer;
    private PartitionState state;
    private final long[] seqs = new long[5];

    @BeforeEach
    void setUp() {
        producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        Properties p = new Properties();
        p.setProperty("transactional.id", "tx-test-0");
        committer = new TransactionalCommitter("test", p, props -> producer,
                () -> new ConsumerGroupMetadata("g"), 1000);
        committer.start();
        state = new PartitionState(tp, -1);
        for (int i = 0; i < 5; i++) {
            seqs[i] = state.append(i);
        }
    }

    @Test
    void withTheOffsetMapEveryFinishedRecordsOutputsGoInOneTransaction() {
        finish(0, 1, 3); // 2 and 4 unfinished
        new CommitManager(1000, 1000, true).commitFinished(committer, List.of(state));

        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(values()).containsExactly("out-0", "out-1", "out-3");
        assertThat(producer.consumerGroupOffsetsHistory().get(0).get("g").get(tp).offset()).isEqualTo(2);
        assertThat(producer.consumerGroupOffsetsHistory().get(0).get("g").get(tp).metadata()).isNotEmpty();
    }

    @Test
    void withoutAMapRecordsAboveTheOffsetWaitForATransactionThatCountsThem() {
        CommitManager commits = new CommitManager(1000, 1000, false);
        finish(0, 1, 3);
        commits.commitFinished(committer, List.of(state));
        assertThat(values()).containsExactly("out-0", "out-1");
        assertThat(committer.snapshot(System.currentTimeMillis()).outputsWaiting()).isEqualTo(1);

        finish(2);
        commits.commitFinished(committer, List.of(state));
        assertThat(values()).as("in the order their records finished").containsExactly("out-0", "out-1", "out-3",
                "out-2");
        assertThat(producer.consumerGroupOffsetsHistory().get(1).get("g").get(tp).offset()).isEqualTo(4);
    }

    @Test
    void anAbortedTransactionHandsItsPartitionsBackAndCommitsNothingBeforeThey() {
        finish(0, 1);
        producer.commitTransactionException = new IllegalStateException("a send failed");
        boolean committed = new CommitManager(1000, 1000, true).commitFinished(committer, List.of(state));

        assertThat(committed).isFalse();
        assertThat(producer.transactionAborted()).isTrue();
        assertThat(state.lastCommitted()).as("nothing counted committed").isEqualTo(-1);
        producer.commitTransactionException = null;
        finish(2);
        assertThat(new CommitManager(1000, 1000, true).commitFinished(committer, List.of(state)))
                .as("refused until the aborted partitions were read again").isFalse();
        assertThat(committer.takeAborted()).containsExactly(tp);
        assertThat(committer.snapshot(System.currentTimeMillis()).aborted()).as("the refusal aborted nothing")
                .isEqualTo(1);
    }

    @Test
    void outputsOfARetiredPartitionAreNeverSent() {
        finish(0, 1);
        state.retire();
        PartitionState next = new PartitionState(tp, 0);
        next.append(0);
        new CommitManager(1000, 1000, true).commitFinished(committer, List.of(state, next));
        assertThat(values()).isEmpty();
        assertThat(committer.snapshot(System.currentTimeMillis()).outputsWaiting()).isZero();
    }

    @Test
    void aFencedProducerCommitsNothingMore() {
        finish(0);
        producer.commitTransactionException = new ProducerFencedException("another with the same id");
        new CommitManager(1000, 1000, true).commitFinished(committer, List.of(state));
        assertThat(committer.fenced()).isTrue();
        assertThat(producer.closed()).isTrue();
    }

    private void finish(int... offsets) {
        for (int o : offsets) {
            assertThat(state.finish(seqs[o], state.generation())).isTrue();
            committer.finished(state, o, List.of(new ProducerRecord<>("out", null,
                    ("out-" + o).getBytes(StandardCharsets.UTF_8))));
        }
    }

    private List<String> values() {
        return producer.history().stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
