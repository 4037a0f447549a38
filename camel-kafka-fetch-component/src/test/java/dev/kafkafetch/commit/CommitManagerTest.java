package dev.kafkafetch.commit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.OffsetMetadataTooLarge;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommitManagerTest {

    private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new ArrayList<>();
    private final CommitManager.Committer committer = (offsets, timeout) -> commits.add(Map.copyOf(offsets));

    private static PartitionState finishedUpTo(int partition, long offsets) {
        PartitionState s = new PartitionState(new TopicPartition("t", partition), -1);
        for (long o = 0; o < offsets; o++) {
            s.finish(s.append(o), s.generation());
        }
        return s;
    }

    @Test
    void commitsNeverPassTheFirstUnfinishedRecord() {
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        long first = s.append(0);
        long second = s.append(1);
        s.finish(second, s.generation());
        CommitManager manager = new CommitManager(100, 1000, false);
        manager.commitIfDue(committer, List.of(s), 0);
        assertThat(commits).isEmpty();
        s.finish(first, s.generation());
        manager.commitIfDue(committer, List.of(s), 100);
        assertThat(commits).containsExactly(Map.of(s.partition(), new OffsetAndMetadata(2)));
    }

    /** Defect: each breakOnFirstError seek back committed its partition and reset the interval for all. */
    @Test
    void aCommitOffTheIntervalDoesNotPostponeTheIntervalCommit() {
        PartitionState retried = finishedUpTo(0, 3);
        PartitionState healthy = finishedUpTo(1, 10);
        CommitManager manager = new CommitManager(1000, 1000, false);
        manager.commitIfDue(committer, List.of(retried, healthy), 0);
        commits.clear();
        healthy.finish(healthy.append(10), healthy.generation());
        for (int i = 0; i < 9; i++) {
            manager.commitFinished(committer, List.of(retried)); // commits off the interval, e.g. on revoke
        }
        manager.commitIfDue(committer, List.of(retried, healthy), 1000);
        assertThat(commits).containsExactly(Map.of(healthy.partition(), new OffsetAndMetadata(11)));
    }

    @Test
    void finishedRecordsAreCommittedSoonButAtMostEveryFinishedInterval() {
        PartitionState s = finishedUpTo(0, 1);
        CommitManager manager = new CommitManager(60_000, 200, 1000, false);
        manager.commitIfDue(committer, List.of(s), 0);
        assertThat(commits).hasSize(1);
        s.finish(s.append(1), s.generation());
        assertThat(manager.millisUntilDue(50)).as("due a finished interval after the last commit").isEqualTo(150);
        manager.commitIfDue(committer, List.of(s), 199);
        assertThat(commits).as("not before the finished interval").hasSize(1);
        manager.commitIfDue(committer, List.of(s), 200);
        assertThat(commits).hasSize(2);
        assertThat(commits.get(1)).isEqualTo(Map.of(s.partition(), new OffsetAndMetadata(2)));
        manager.commitIfDue(committer, List.of(s), 1000);
        assertThat(commits).as("nothing new finished: nothing to commit").hasSize(2);
    }

    @Test
    void aHugeIntervalMeansNeverInsteadOfOverflowing() {
        PartitionState s = finishedUpTo(0, 1);
        CommitManager manager = new CommitManager(Long.MAX_VALUE, 1000, false);
        manager.commitIfDue(committer, List.of(s), 5);
        s.finish(s.append(1), s.generation());
        manager.commitIfDue(committer, List.of(s), 10);
        assertThat(commits).hasSize(1);
        assertThat(manager.millisUntilDue(10)).isGreaterThan(Duration.ofDays(365).toMillis());
    }

    @Test
    void aFailedCommitChangesNothingAndIsRetried() {
        PartitionState s = finishedUpTo(0, 5);
        CommitManager manager = new CommitManager(100, 1000, false);
        boolean ok = manager.commitFinished((offsets, timeout) -> {
            throw new IllegalStateException("broker down");
        }, List.of(s));
        assertThat(ok).isFalse();
        assertThat(manager.failures()).isEqualTo(1);
        assertThat(s.lastCommitted()).isEqualTo(-1);
        assertThat(manager.commitFinished(committer, List.of(s))).isTrue();
        assertThat(s.lastCommitted()).isEqualTo(5);
    }

    @Test
    void withTheOffsetMapACommitNamesTheRecordsFinishedAboveIt() {
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        long first = s.append(0);
        s.finish(s.append(1), s.generation());
        s.finish(s.append(2), s.generation());
        CommitManager manager = new CommitManager(100, 1000, true);
        manager.commitIfDue(committer, List.of(s), 0);
        OffsetAndMetadata c = commits.get(0).get(s.partition());
        assertThat(c.offset()).as("nothing released yet: the first unfinished offset").isZero();
        assertThat(OffsetMap.decode(c.metadata(), 0).count()).isEqualTo(2);

        manager.commitIfDue(committer, List.of(s), 100);
        assertThat(commits).as("nothing changed since").hasSize(1);
        s.finish(first, s.generation());
        manager.commitIfDue(committer, List.of(s), 200);
        assertThat(commits.get(1).get(s.partition())).isEqualTo(new OffsetAndMetadata(3, ""));
    }

    @Test
    void aBrokerRefusingTheMapGetsTheCommitWithoutIt() {
        PartitionState s = new PartitionState(new TopicPartition("t", 0), -1);
        s.append(0);
        s.finish(s.append(1), s.generation());
        CommitManager manager = new CommitManager(100, 1000, true);
        assertThat(manager.commitFinished((offsets, timeout) -> {
            if (!offsets.values().iterator().next().metadata().isEmpty()) {
                throw new OffsetMetadataTooLarge("too large");
            }
            commits.add(Map.copyOf(offsets));
        }, List.of(s))).isTrue();
        assertThat(commits).containsExactly(Map.of(s.partition(), new OffsetAndMetadata(0)));
        assertThat(manager.mapsLeftOut()).isEqualTo(1);
    }

    /** The commit latency metric: every commitSync call is counted and timed, the failed ones too. */
    @Test
    void everyCommitCallIsCountedAndTimedFailedOnesToo() {
        PartitionState s = finishedUpTo(0, 5);
        CommitManager manager = new CommitManager(100, 1000, false);
        manager.commitFinished((offsets, timeout) -> {
            sleep(20);
            throw new IllegalStateException("broker down");
        }, List.of(s));
        manager.commitFinished((offsets, timeout) -> sleep(20), List.of(s));
        manager.commitFinished(committer, List.of(s)); // nothing new to commit: no call
        assertThat(manager.commitCalls()).isEqualTo(2);
        assertThat(manager.commits()).isEqualTo(1);
        assertThat(manager.failures()).isEqualTo(1);
        assertThat(manager.commitCallNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
