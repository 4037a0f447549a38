package dev.kafkafetch.dispatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LanesTest {

    private final PartitionState p0 = new PartitionState(new TopicPartition("t", 0), 0);
    private final PartitionState p1 = new PartitionState(new TopicPartition("t", 1), 0);

    @Test
    void keyLanesLetOneRecordPerKeyAndPartitionAheadInOrder() {
        Lanes lanes = new Lanes(Ordering.KEY, false);
        WorkItem a1 = item(p0, 1, "a");
        WorkItem a2 = item(p0, 2, "a");
        WorkItem a3 = item(p0, 3, "a");
        WorkItem b4 = item(p0, 4, "b");
        WorkItem otherPartitionA = item(p1, 1, "a");
        WorkItem noKey = item(p0, 5, null);

        assertThat(admit(lanes, a1)).as("idle lane").isTrue();
        assertThat(admit(lanes, a2)).as("behind a1").isFalse();
        assertThat(admit(lanes, a3)).isFalse();
        assertThat(admit(lanes, b4)).as("another key").isTrue();
        assertThat(admit(lanes, otherPartitionA)).as("the same key in another partition").isTrue();
        assertThat(admit(lanes, noKey)).as("a null key has no lane").isTrue();
        assertThat(lanes.waitingBehind(a1)).isEqualTo(2);
        assertThat(lanes.waitingBehind(a2)).as("behind a2: a3 only").isEqualTo(1);
        assertThat(lanes.waitingBehind(a3)).isZero();
        assertThat(lanes.headAhead(a1)).as("a1 is the head").isNull();
        assertThat(lanes.headAhead(a3)).as("a3 waits behind the head").isSameAs(a1);
        assertThat(lanes.headAhead(noKey)).as("no lane").isNull();

        assertThat(lanes.release(a3)).as("a3 heads no lane: nothing moves").isNull();
        assertThat(lanes.release(a1)).isSameAs(a2);
        assertThat(lanes.release(a1)).as("a1 no longer heads its lane").isNull();
        assertThat(lanes.headAhead(a3)).as("the lane passed to a2").isSameAs(a2);
        assertThat(lanes.release(a2)).isSameAs(a3);
        assertThat(lanes.release(a3)).as("the lane becomes idle").isNull();
        assertThat(admit(lanes, item(p0, 6, "a"))).as("an idle lane takes its next record at once").isTrue();
        assertThat(lanes.release(noKey)).isNull();
    }

    @Test
    void partitionLanesAndBatchesInOrder() {
        Lanes lanes = new Lanes(Ordering.PARTITION, true);
        WorkItem x = item(p0, 1, "a");
        WorkItem y = item(p0, 2, "b");
        assertThat(admit(lanes, x)).isTrue();
        assertThat(admit(lanes, y)).as("one lane per partition, whatever the key").isFalse();
        WorkItem batch1 = new WorkItem(List.of(item(p1, 1, "a")));
        WorkItem batch2 = new WorkItem(List.of(item(p1, 2, "a")));
        assertThat(admit(lanes, batch1)).isTrue();
        assertThat(admit(lanes, batch2)).as("batches in order share one lane").isFalse();

        Lanes unordered = new Lanes(Ordering.UNORDERED, false);
        assertThat(admit(unordered, new WorkItem(List.of(item(p1, 3, "a"))))).isTrue();
        assertThat(admit(unordered, new WorkItem(List.of(item(p1, 4, "a"))))).as("batches not in order").isTrue();
    }

    @Test
    void waitingRecordsAreRemovedWithoutTouchingTheHead() {
        Lanes lanes = new Lanes(Ordering.KEY, false);
        WorkItem head = item(p0, 1, "a");
        WorkItem second = item(p0, 2, "a");
        WorkItem third = item(p0, 3, "a");
        admit(lanes, head);
        admit(lanes, second);
        admit(lanes, third);

        assertThat(lanes.removeWaiting(head)).as("the head is not waiting").isFalse();
        assertThat(lanes.removeWaiting(second)).isTrue();
        List<WorkItem> removed = new ArrayList<>();
        lanes.removeWaitingIf(i -> i.offset() == 3, removed::add);
        assertThat(removed).containsExactly(third);
        assertThat(lanes.release(head)).as("nothing waits any more: the lane becomes idle").isNull();
    }

    private static WorkItem item(PartitionState s, long offset, String key) {
        return new WorkItem(s, s.append(offset), s.generation(), 1, offset, 0,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), null, null, null, null, null);
    }

    /** What the dispatcher does: the lane key first (outside its lock), then the admission. */
    private static boolean admit(Lanes lanes, WorkItem item) {
        item.lane = lanes.keyOf(item);
        return lanes.admit(item);
    }
}
