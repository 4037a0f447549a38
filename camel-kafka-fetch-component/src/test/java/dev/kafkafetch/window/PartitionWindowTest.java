package dev.kafkafetch.window;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionWindowTest {

    @Test
    void nothingCommittableBeforeTheFirstRecordFinishes() {
        PartitionWindow w = new PartitionWindow();
        assertThat(w.committable()).isEqualTo(-1);
        long s0 = w.append(10);
        long s1 = w.append(11);
        w.finish(s1, 0);
        assertThat(w.committable()).isEqualTo(-1);
        assertThat(w.firstUnfinishedOffset()).isEqualTo(10);
        w.finish(s0, 0);
        assertThat(w.committable()).isEqualTo(12);
        assertThat(w.unfinished()).isZero();
        assertThat(w.size()).isZero();
    }

    @Test
    void gapsInOffsetsAreRespected() {
        PartitionWindow w = new PartitionWindow();
        long a = w.append(5);
        long b = w.append(9); // 6..8 compacted away
        long c = w.append(20);
        w.finish(a, 0);
        assertThat(w.committable()).isEqualTo(6);
        w.finish(c, 0);
        assertThat(w.committable()).isEqualTo(6);
        w.finish(b, 0);
        assertThat(w.committable()).isEqualTo(21);
    }

    @Test
    void finishingTwiceOrOutsideTheWindowChangesNothing() {
        PartitionWindow w = new PartitionWindow();
        long a = w.append(1);
        assertThat(w.finish(a, 0)).isTrue();
        assertThat(w.finish(a, 0)).isFalse();
        assertThat(w.finish(a + 5, 0)).isFalse();
        assertThat(w.unfinished()).isZero();
    }

    @Test
    void offsetsMustIncrease() {
        PartitionWindow w = new PartitionWindow();
        w.append(7);
        assertThatThrownBy(() -> w.append(7)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRepeatedOffsetIsKnownBeforeItIsAppended() {
        PartitionWindow w = new PartitionWindow();
        assertThat(w.polledAtOrAfter(0)).isFalse();
        long a = w.append(10);
        long b = w.append(12);
        assertThat(w.polledAtOrAfter(10)).isTrue();
        assertThat(w.polledAtOrAfter(11)).as("a gap below the newest").isTrue();
        assertThat(w.polledAtOrAfter(12)).isTrue();
        assertThat(w.polledAtOrAfter(13)).isFalse();
        // released records still count: offset 12 polled again would be routed twice
        w.finish(a, 0);
        w.finish(b, 0);
        assertThat(w.size()).isZero();
        assertThat(w.polledAtOrAfter(12)).isTrue();
        assertThat(w.committable()).isEqualTo(13);
        // a seek back makes the dropped offsets new again, but not those before them
        long c = w.append(13);
        w.append(14);
        w.truncateFrom(13);
        assertThat(w.polledAtOrAfter(13)).isFalse();
        assertThat(w.polledAtOrAfter(12)).isTrue();
        assertThat(w.finish(c, 0)).isFalse();
    }

    @Test
    void memoryFollowsTheWindowNotTheTopic() {
        PartitionWindow w = new PartitionWindow();
        // a million records, never more than 100 unfinished at once
        List<Long> open = new ArrayList<>();
        for (long offset = 0; offset < 1_000_000; offset++) {
            open.add(w.append(offset));
            if (open.size() == 100) {
                for (long s : open) {
                    w.finish(s, 0);
                }
                open.clear();
            }
        }
        assertThat(w.capacity()).isLessThanOrEqualTo(128);
        assertThat(w.committable()).isEqualTo(1_000_000);
    }

    @Test
    void aSeekBackDropsTheNewestRecordsAndIgnoresTheirLateCompletions() {
        PartitionWindow w = new PartitionWindow();
        long a = w.append(10);
        long b = w.append(11);
        long c = w.append(12);
        int before = w.generation();
        w.finish(a, before);
        assertThat(w.truncateFrom(11)).isEqualTo(2);
        assertThat(w.unfinished()).isZero();
        assertThat(w.size()).isZero();
        assertThat(w.lastPolledOffset()).isEqualTo(10);
        // polled again into the same slots, in a new generation
        long b2 = w.append(11);
        long c2 = w.append(12);
        assertThat(b2).isEqualTo(b);
        assertThat(w.finish(c, before)).as("a late completion from before the seek back").isFalse();
        assertThat(w.finish(b, before)).isFalse();
        assertThat(w.committable()).isEqualTo(11);
        assertThat(w.finish(c2, w.generation())).isTrue();
        assertThat(w.committable()).isEqualTo(11);
        assertThat(w.finish(b2, w.generation())).isTrue();
        assertThat(w.committable()).isEqualTo(13);
    }

    @Test
    void aSeekBackKeepsEarlierRecordsAndNeverUnreleasesFinishedOnes() {
        PartitionWindow w = new PartitionWindow();
        long a = w.append(1);
        long b = w.append(2);
        long c = w.append(3);
        int g = w.generation();
        w.finish(a, g);
        assertThat(w.truncateFrom(3)).isEqualTo(1);
        assertThat(w.firstUnfinishedOffset()).isEqualTo(2);
        assertThat(w.finish(b, g)).as("an earlier record still finishes").isTrue();
        assertThat(w.committable()).isEqualTo(3);
        assertThat(w.truncateFrom(0)).isZero();
        assertThat(w.committable()).as("released records stay released").isEqualTo(3);
        assertThat(w.finish(c, g)).isFalse();
    }

    /**
     * Property: for random offsets (with gaps) finished in a random order, after every step the committable offset
     * is never past an unfinished record, it equals the first unfinished offset when there is one, and it reaches
     * last + 1 when everything finished.
     */
    @RepeatedTest(200)
    void committableNeverPassesAnUnfinishedRecord() {
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        PartitionWindow w = new PartitionWindow();
        int n = 1 + random.nextInt(2000);
        long[] offsets = new long[n];
        long[] seqs = new long[n];
        long offset = random.nextInt(1000);
        TreeSet<Long> unfinished = new TreeSet<>();
        List<Integer> order = new ArrayList<>();
        int appended = 0;
        // interleave appends and finishes, as the fetch thread does
        while (appended < n || !order.isEmpty()) {
            boolean doAppend = appended < n && (order.isEmpty() || random.nextInt(3) > 0);
            if (doAppend) {
                offset += 1 + (random.nextInt(10) == 0 ? random.nextInt(50) : 0);
                offsets[appended] = offset;
                seqs[appended] = w.append(offset);
                unfinished.add(offset);
                order.add(appended);
                appended++;
            } else {
                Collections.shuffle(order, random);
                int i = order.remove(order.size() - 1);
                assertThat(w.finish(seqs[i], 0)).as("seed %d", seed).isTrue();
                unfinished.remove(offsets[i]);
            }
            long committable = w.committable();
            if (!unfinished.isEmpty()) {
                assertThat(committable).as("seed %d", seed).isLessThanOrEqualTo(unfinished.first());
                assertThat(w.firstUnfinishedOffset()).as("seed %d", seed).isEqualTo(unfinished.first());
            }
            assertThat(w.unfinished()).as("seed %d", seed).isEqualTo(unfinished.size());
        }
        assertThat(w.committable()).as("seed %d", seed).isEqualTo(offsets[n - 1] + 1);
        assertThat(w.firstUnfinishedOffset()).isEqualTo(-1);
    }

    @Test
    void aReopenedRecordHoldsTheCommittableOffsetBackAgain() {
        PartitionWindow w = new PartitionWindow();
        long s10 = w.append(10);
        long s11 = w.append(11);
        long s12 = w.append(12);
        w.finish(s10, 0);
        w.finish(s11, 0);
        assertThat(w.committable()).isEqualTo(12);
        assertThat(w.reopen(s11, 0)).isTrue();
        assertThat(w.committable()).isEqualTo(11);
        assertThat(w.unfinished()).isEqualTo(2);
        assertThat(w.firstUnfinishedOffset()).isEqualTo(11);
        assertThat(w.reopen(s11, 0)).as("not finished any more").isFalse();
        assertThat(w.reopen(s12, 0)).as("never finished").isFalse();
        w.finish(s12, 0);
        assertThat(w.committable()).isEqualTo(11);
        w.finish(s11, 0);
        assertThat(w.committable()).isEqualTo(13);
    }

    @Test
    void aRecordDroppedOrOverwrittenCannotBeReopened() {
        PartitionWindow w = new PartitionWindow();
        long s0 = w.append(0);
        w.finish(s0, 0);
        for (int i = 1; i <= w.capacity(); i++) {
            w.finish(w.append(i), 0); // released slots are overwritten one by one
        }
        assertThat(w.reopen(s0, 0)).as("its slot holds another record now").isFalse();
        assertThat(w.committable()).isEqualTo(w.capacity() + 1);
        long kept = w.append(1000);
        long dropped = w.append(1001);
        w.finish(dropped, 0);
        w.truncateFrom(1001);
        assertThat(w.reopen(dropped, 0)).as("dropped by a seek back").isFalse();
        w.finish(kept, 0);
        assertThat(w.reopen(kept, 0)).isTrue();
        assertThat(w.committable()).isEqualTo(1000);
    }

    @Test
    void reopeningAfterTheRingGrewDoesNotReadCopiedAwaySlots() {
        PartitionWindow w = new PartitionWindow();
        long first = w.append(0);
        w.finish(first, 0);
        long blocker = w.append(1);
        for (int i = 2; i < 3 * 64; i++) {
            w.append(i); // held behind the unfinished blocker: the ring grows
        }
        assertThat(w.capacity()).isGreaterThan(64);
        assertThat(w.reopen(first, 0)).as("released before the ring grew").isFalse();
        w.finish(blocker, 0);
        assertThat(w.reopen(blocker, 0)).isTrue();
        assertThat(w.committable()).isEqualTo(1);
    }

    @Test
    void aSoughtStartIsCommittableUntilARecordFinishesPastIt() {
        PartitionWindow w = new PartitionWindow();
        w.startAt(40);
        assertThat(w.committable()).as("sought, nothing polled").isEqualTo(40);
        long a = w.append(40);
        long b = w.append(41);
        assertThat(w.committable()).as("polled, nothing finished: never past the first unfinished").isEqualTo(40);
        w.finish(b, 0);
        assertThat(w.committable()).isEqualTo(40);
        w.finish(a, 0);
        assertThat(w.committable()).isEqualTo(42);
    }

    @Test
    void aStartAfterSomethingWasPolledChangesNothing() {
        PartitionWindow w = new PartitionWindow();
        w.append(3);
        w.startAt(10);
        assertThat(w.committable()).isEqualTo(-1);
    }

    /** The record objects attached to unfinished slots name what a partition is stuck on, and are never kept after. */
    @Test
    void attachedRecordsAreFoundWhileUnfinishedAndDroppedWhenFinishedOrTruncated() {
        PartitionWindow w = new PartitionWindow();
        List<Long> seqs = new ArrayList<>();
        for (long offset = 0; offset < 200; offset += 2) { // gaps, and more than the initial capacity
            long seq = w.append(offset);
            seqs.add(seq);
            assertThat(w.attach(seq, 0, "r" + offset)).isTrue();
        }
        assertThat(w.firstUnfinishedRecord()).isEqualTo("r0");
        assertThat(w.unfinishedRecordAt(100)).isEqualTo("r100");
        assertThat(w.unfinishedRecordAt(101)).as("no such offset").isNull();
        w.finish(seqs.get(0), 0);
        w.finish(seqs.get(2), 0);
        assertThat(w.firstUnfinishedRecord()).isEqualTo("r2");
        assertThat(w.unfinishedRecordAt(4)).as("finished behind the head").isNull();
        assertThat(w.attach(seqs.get(2), 0, "again")).as("finished: nothing attached").isFalse();
        w.truncateFrom(150);
        assertThat(w.unfinishedRecordAt(150)).isNull();
        assertThat(w.unfinishedRecordAt(148)).isEqualTo("r148");
        assertThat(w.attach(seqs.get(80), 0, "dropped")).as("dropped by the seek back").isFalse();
        long again = w.append(150);
        assertThat(w.unfinishedRecordAt(150)).as("a new slot starts empty").isNull();
        assertThat(w.attach(again, 1, "r150b")).isTrue();
        assertThat(w.unfinishedRecordAt(150)).isEqualTo("r150b");
    }
}
