package dev.kafkafetch.error;

import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Pausable EIP listener's verdict on a finished record: none without a listener, a pause for a failed record, and a
 * listener that throws fails a record that had not failed (and never escapes).
 */
class ListenerVerdictTest {

    private final PartitionState partition = new PartitionState(new TopicPartition("t", 0), -1);

    @Test
    void pausesOnAFailedRecordOnly() {
        KafkaFetchConsumerListener listener = new KafkaFetchConsumerListener();
        assertThat(ListenerVerdict.ask(null, failed(item()))).isEqualTo(ListenerVerdict.GO_ON);
        assertThat(ListenerVerdict.ask(listener, item())).isEqualTo(ListenerVerdict.GO_ON);
        assertThat(ListenerVerdict.ask(listener, failed(item()))).isEqualTo(ListenerVerdict.PAUSE);
    }

    @Test
    void aThrowingListenerFailsARecordThatHadNotFailed() {
        KafkaFetchConsumerListener throwing = new KafkaFetchConsumerListener() {
            @Override
            public boolean afterProcess(ProcessingResult result) {
                throw new IllegalStateException("listener down");
            }
        };
        WorkItem ok = item();
        assertThat(ListenerVerdict.ask(throwing, ok)).isEqualTo(ListenerVerdict.FAILED_RECORD);
        assertThat(ok.failure()).hasMessage("listener down");

        WorkItem failed = failed(item());
        assertThat(ListenerVerdict.ask(throwing, failed)).isEqualTo(ListenerVerdict.GO_ON);
        assertThat(failed.failure()).hasMessage("route down");
    }

    private WorkItem item() {
        return new WorkItem(partition, 1, 0, 1, 1, 0, null, new byte[] { 1 }, null, null, "v", null);
    }

    private static WorkItem failed(WorkItem item) {
        item.fail("failed", new IllegalStateException("route down"));
        return item;
    }
}
