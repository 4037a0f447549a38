package dev.kafkafetch.task;

import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompletionQueueTest {

    private final AtomicInteger wakeups = new AtomicInteger();
    private final PartitionState state = new PartitionState(new TopicPartition("t", 0), -1);

    private WorkItem record(long offset) {
        return new WorkItem(state, state.append(offset), state.generation(), 1, offset, 0, null, null, null, null, null,
                null);
    }

    /** docs/design.md §4.3: the bound is on records held, finished ones behind an unfinished one included. */
    @Test
    void pausesBeforeOnePollCouldPassTheBoundAndResumesAtTheLowWaterMark() {
        CompletionQueue queue = new CompletionQueue(1000, 100, wakeups::incrementAndGet);
        assertThat(queue.update(900, 900)).isFalse();
        assertThat(queue.update(901, 1)).as("one unfinished record holds 900 finished ones").isTrue();
        assertThat(queue.update(600, 1)).isTrue();
        assertThat(queue.update(500, 1)).isFalse();
    }

    @Test
    void theCompletionThatCanReachTheLowWaterMarkWakesTheFetchThread() {
        CompletionQueue queue = new CompletionQueue(10, 2, wakeups::incrementAndGet);
        assertThat(queue.update(10, 3)).isTrue(); // low water 5: 3 completions might get there
        queue.offer(record(0));
        queue.offer(record(1));
        assertThat(wakeups.get()).isZero();
        queue.offer(record(2));
        assertThat(wakeups.get()).isEqualTo(1);
        queue.offer(record(3));
        assertThat(wakeups.get()).as("once").isEqualTo(1);
        assertThat(queue.poll()).isNotNull();
    }

    @Test
    void aNewConsumerStartsUnpaused() {
        CompletionQueue queue = new CompletionQueue(10, 2, wakeups::incrementAndGet);
        queue.update(10, 10);
        queue.reset();
        assertThat(queue.paused()).isFalse();
        queue.offer(record(0));
        assertThat(wakeups.get()).isZero();
    }
}
