package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.KafkaFetchConsumerListener;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.security.SecretMasker;
import dev.kafkafetch.window.PartitionState;
import org.apache.camel.Exchange;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Pausable EIP on a share task: a failed record pauses it and holds the dispatcher at once; the resume check ends
 * the pause, a throwing check keeps it; a throwing listener fails its record without a pause. The record that paused
 * the task is released while the broker would deliver it again (beyond maxDeliveryAttempts too), and failed for good
 * on the group's last delivery, where a release would archive it.
 */
class SharePausableTest {

    private final AtomicInteger holds = new AtomicInteger();
    private final SharePausable pausable = new SharePausable("t", holds::incrementAndGet);
    private final AtomicBoolean serviceUp = new AtomicBoolean();
    private final AtomicInteger checks = new AtomicInteger();
    private final PartitionState partition = new PartitionState(new TopicPartition("t", 0), -1);

    SharePausableTest() {
        KafkaFetchConsumerListener listener = new KafkaFetchConsumerListener();
        listener.setResumableCheck(task -> {
            checks.incrementAndGet();
            return serviceUp.get();
        });
        pausable.setListener(listener);
    }

    @Test
    void aFailedRecordPausesUntilTheCheckSaysResume() {
        assertThat(pausable.afterProcess(item(1, 1))).isFalse();
        assertThat(pausable.requested()).isFalse();
        assertThat(holds).hasValue(0);

        assertThat(pausable.afterProcess(failed(item(2, 1)))).isTrue();
        assertThat(pausable.requested()).isTrue();
        assertThat(holds).as("dispatcher held at once").hasValue(1);

        assertThat(pausable.stillPaused(this)).isTrue();
        assertThat(pausable.stillPaused(this)).isTrue();
        assertThat(checks).hasValue(2);
        serviceUp.set(true);
        assertThat(pausable.stillPaused(this)).isFalse();
        assertThat(pausable.requested()).isFalse();
        assertThat(pausable.stillPaused(this)).as("not paused: the check is not asked").isFalse();
        assertThat(checks).hasValue(3);
    }

    @Test
    void withoutAListenerNothingPauses() {
        SharePausable none = new SharePausable("t", holds::incrementAndGet);
        assertThat(none.afterProcess(failed(item(1, 1)))).isFalse();
        assertThat(none.requested()).isFalse();
        assertThat(none.stillPaused(this)).isFalse();
        assertThat(holds).hasValue(0);
    }

    @Test
    void aThrowingListenerFailsItsRecordWithoutAPause() {
        pausable.setListener(new KafkaFetchConsumerListener() {
            @Override
            public boolean afterProcess(ProcessingResult result) {
                throw new IllegalStateException("listener down");
            }
        });
        WorkItem item = item(1, 1);
        assertThat(pausable.afterProcess(item)).isFalse();
        assertThat(item.failure()).hasMessage("listener down");
        assertThat(pausable.requested()).isFalse();
        assertThat(holds).hasValue(0);
    }

    @Test
    void aThrowingResumeCheckKeepsThePause() {
        KafkaFetchConsumerListener listener = new KafkaFetchConsumerListener();
        listener.setResumableCheck(task -> {
            throw new IllegalStateException("check down");
        });
        pausable.setListener(listener);
        assertThat(pausable.afterProcess(failed(item(1, 1)))).isTrue();
        assertThat(pausable.stillPaused(this)).isTrue();
        assertThat(pausable.requested()).isTrue();
    }

    @Test
    void theRecordThatPausedIsReleasedUnlessOnTheLastDelivery() {
        DeliveryLimit limit = new DeliveryLimit();
        limit.known(4);
        List<String> decided = new ArrayList<>();
        List<String> reported = new ArrayList<>();
        ShareOutcomes outcomes = new ShareOutcomes("g", null, 2, limit, null,
                new ExceptionHandler() {
                    @Override
                    public void handleException(Throwable exception) {
                        reported.add(exception.getMessage());
                    }

                    @Override
                    public void handleException(String message, Throwable exception) {
                        reported.add(message);
                    }

                    @Override
                    public void handleException(String message, Exchange exchange, Throwable exception) {
                        reported.add(message);
                    }
                },
                new TaskMetrics("t", "t", "g", 10, 1, new SecretMasker(List.of())), pausable,
                item -> decided.add(item.offset() + ":" + ShareOutcomes.acknowledgeTypeOf(item)));

        outcomes.accept(failed(item(1, 1))); // deliveries left anyway
        outcomes.accept(failed(item(2, 3))); // past maxDeliveryAttempts 2, but the broker delivers it again
        outcomes.accept(failed(item(3, 4))); // the group's last delivery: a release would archive it
        assertThat(decided).containsExactly("1:" + AcknowledgeType.RELEASE, "2:" + AcknowledgeType.RELEASE,
                "3:" + AcknowledgeType.REJECT);
        assertThat(reported).hasSize(1);

        // without a pause, delivery 3 of maxDeliveryAttempts 2 is final
        pausable.setListener(null);
        outcomes.accept(failed(item(4, 3)));
        assertThat(decided).endsWith("4:" + AcknowledgeType.REJECT);
    }

    private WorkItem item(long offset, int delivery) {
        return new WorkItem(partition, offset, 0, delivery, offset, 0, null, new byte[] { 1 }, null, null, "v", null);
    }

    private static WorkItem failed(WorkItem item) {
        item.fail("failed", new IllegalStateException("service unavailable"));
        return item;
    }
}
