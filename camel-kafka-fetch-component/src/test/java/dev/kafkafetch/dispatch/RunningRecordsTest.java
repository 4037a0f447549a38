package dev.kafkafetch.dispatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RunningRecordsTest {

    private final PartitionState state = new PartitionState(new TopicPartition("t", 0), -1);
    private long offset;

    private WorkItem item() {
        long o = offset++;
        int generation = state.generation();
        return new WorkItem(state, state.append(o), generation, 1, o, 0, "k".getBytes(StandardCharsets.UTF_8), null,
                null, null, null, null);
    }

    @Test
    void keepsTheOrderRecordsTookTheirSlotsInAcrossRemovals() {
        RunningRecords running = new RunningRecords();
        List<WorkItem> items = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            items.add(item());
            running.add(items.get(i));
        }
        running.remove(items.get(0)); // the head
        running.remove(items.get(3)); // the middle
        running.remove(items.get(5)); // the tail
        running.remove(items.get(5)); // not there any more: nothing
        assertThat(running.copy()).containsExactly(items.get(1), items.get(2), items.get(4));
        assertThat(running.size()).isEqualTo(3);
        WorkItem later = item();
        running.add(later);
        assertThat(running.copy()).containsExactly(items.get(1), items.get(2), items.get(4), later);
        assertThat(running.count(w -> w.offset() >= 2)).isEqualTo(3);
    }

    @Test
    void theRecordsRunningSinceACutOffAreAPrefixReadWithoutWalkingTheRest() {
        RunningRecords running = new RunningRecords();
        List<WorkItem> old = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            old.add(item());
            running.add(old.get(i));
        }
        running.remove(old.get(1));
        long cutOff = after(old.get(2).runningSinceNanos);
        after(cutOff);
        List<WorkItem> recent = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            recent.add(item());
            running.add(recent.get(i));
        }
        assertThat(running.since(cutOff)).containsExactly(old.get(0), old.get(2));
        assertThat(running.since(old.get(0).runningSinceNanos - 1)).isEmpty();
        assertThat(running.since(System.nanoTime())).hasSize(1002);
        running.remove(old.get(0));
        assertThat(running.since(cutOff)).containsExactly(old.get(2));
    }

    /** spins until System.nanoTime() has passed {@code nanos}; returns the new time */
    private static long after(long nanos) {
        long now = System.nanoTime();
        while (now - nanos <= 0) {
            Thread.onSpinWait();
            now = System.nanoTime();
        }
        return now;
    }

    @Test
    void theOldestIsTheHeadAndComesFromTheNextOneWhenItLeaves() throws Exception {
        RunningRecords running = new RunningRecords();
        assertThat(running.oldestStartedAtNanos()).isZero();
        WorkItem first = item();
        running.add(first);
        long firstAt = running.oldestStartedAtNanos();
        assertThat(firstAt).isNotZero();
        Thread.sleep(2);
        WorkItem second = item();
        running.add(second);
        assertThat(running.oldestStartedAtNanos()).isEqualTo(firstAt);
        running.remove(first);
        assertThat(running.oldestStartedAtNanos()).isGreaterThan(firstAt);
        running.remove(second);
        assertThat(running.oldestStartedAtNanos()).isZero();
        assertThat(running.size()).isZero();
        running.add(first);
        assertThat(running.copy()).containsExactly(first);
    }
}
