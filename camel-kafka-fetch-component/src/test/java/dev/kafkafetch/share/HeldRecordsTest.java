package dev.kafkafetch.share;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.window.PartitionState;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acknowledgement state of held records: an outcome is given at once while the record is in the client, kept
 * while it renews and given when the renewal hands it back, dropped when its lock is lost; every record is
 * acknowledged at most once per delivery, and a late outcome of an older delivery is ignored.
 */
class HeldRecordsTest {

    private final List<String> acks = new ArrayList<>();
    private final HeldRecords held = new HeldRecords((r, type) -> acks.add(r.offset() + ":" + type.name()),
            new ShareMetrics("t", "g"));
    private final PartitionState partition = new PartitionState(new TopicPartition("t", 0), -1);

    @Test
    void outcomeGivenAtOnceWhileInTheClient() {
        ConsumerRecord<byte[], byte[]> r = record(5);
        WorkItem item = item(r);
        held.add(r, item);
        assertThat(held.inClient()).isEqualTo(1);
        held.decided(item, AcknowledgeType.ACCEPT);
        assertThat(acks).containsExactly("5:ACCEPT");
        assertThat(held.inClient()).isZero();
        assertThat(held.size()).isZero();
        held.decided(item, AcknowledgeType.ACCEPT); // never twice
        assertThat(acks).hasSize(1);
    }

    @Test
    void aReleaseIsAGiveBackUntilSentAndAFailedPollLeavesItUncertain() {
        ConsumerRecord<byte[], byte[]> a = record(1);
        ConsumerRecord<byte[], byte[]> b = record(2);
        WorkItem first = item(a);
        WorkItem second = item(b);
        held.add(a, first);
        held.add(b, second);
        held.decided(first, AcknowledgeType.ACCEPT);
        assertThat(held.givingBack()).as("an accept gives nothing back").isFalse();
        held.decided(second, AcknowledgeType.RELEASE);
        assertThat(held.givingBack()).isTrue();
        held.sendUncertain(); // a poll woken by a stop, after it may have sent the release
        assertThat(held.givingBack()).as("still to be committed").isTrue();
        assertThat(held.takeUncertainSend()).isTrue();
        assertThat(held.takeUncertainSend()).as("answered once").isFalse();
        held.sent();
        assertThat(held.givingBack()).isFalse();
        held.sendUncertain(); // nothing was waiting to go
        assertThat(held.takeUncertainSend()).isFalse();
    }

    @Test
    void outcomeDecidedDuringRenewalIsGivenWhenTheRecordComesBack() {
        ConsumerRecord<byte[], byte[]> a = record(1);
        ConsumerRecord<byte[], byte[]> b = record(2);
        WorkItem ia = item(a);
        WorkItem ib = item(b);
        held.add(a, ia);
        held.add(b, ib);
        assertThat(held.renewAll()).isEqualTo(2);
        assertThat(acks).containsExactly("1:RENEW", "2:RENEW");
        assertThat(held.inClient()).isZero();
        assertThat(held.renewing()).isEqualTo(2);

        held.decided(ia, AcknowledgeType.RELEASE); // not acknowledgeable now: kept
        assertThat(acks).hasSize(2);
        assertThat(held.returned(record(1))).isTrue();
        assertThat(acks).endsWith("1:RELEASE");
        assertThat(held.returned(record(2))).isTrue();
        assertThat(held.inClient()).isEqualTo(1);
        assertThat(held.renewing()).isZero();
        held.decided(ib, AcknowledgeType.ACCEPT);
        assertThat(acks).endsWith("2:ACCEPT");
        assertThat(held.size()).isZero();
    }

    @Test
    void failedRenewalLosesTheLockAndIgnoresTheLateOutcome() {
        ConsumerRecord<byte[], byte[]> r = record(7);
        WorkItem item = item(r);
        held.add(r, item);
        held.renewAll();
        held.renewalsFailed(Set.of(new TopicPartition("t", 0)));
        assertThat(held.renewing()).isZero();
        assertThat(held.inClient()).isZero(); // the next poll may go ahead
        held.decided(item, AcknowledgeType.ACCEPT);
        assertThat(acks).containsExactly("7:RENEW");
        assertThat(held.size()).isZero();
    }

    @Test
    void aNewDeliveryReplacesAnOldOneWhoseLockWasLost() {
        ConsumerRecord<byte[], byte[]> r = record(9);
        WorkItem first = item(r);
        held.add(r, first);
        held.renewAll();
        held.renewalsFailed(Set.of(new TopicPartition("t", 0)));
        assertThat(held.returned(record(9))).as("not a renewal: a new delivery").isFalse();
        WorkItem second = item(r);
        held.add(record(9), second);
        held.decided(first, AcknowledgeType.ACCEPT); // the old delivery's outcome
        assertThat(acks).containsExactly("9:RENEW");
        held.decided(second, AcknowledgeType.REJECT);
        assertThat(acks).containsExactly("9:RENEW", "9:REJECT");
    }

    @Test
    void aQueuedRecordWhoseRenewalWasRefusedIsHandedBackToBeCancelled() {
        ConsumerRecord<byte[], byte[]> a = record(4);
        ConsumerRecord<byte[], byte[]> b = record(5);
        WorkItem ia = item(a);
        held.add(a, ia);
        held.add(b, item(b));
        held.renewAll();
        // the acknowledgement callback names the refused offsets
        assertThat(held.renewalsFailed(new TopicPartition("t", 0), Set.of(4L))).containsExactly(ia);
        assertThat(held.renewing()).isEqualTo(1);
        assertThat(held.size()).as("the queued record is forgotten").isEqualTo(1);
        assertThat(held.renewalsFailed(new TopicPartition("t", 0), Set.of(4L))).as("lost once").isEmpty();
    }

    @Test
    void renewedRecordsThatNeverCameBackLoseTheirLocks() {
        ConsumerRecord<byte[], byte[]> r = record(6);
        WorkItem item = item(r);
        held.add(r, item);
        held.renewAll();
        assertThat(held.renewalsExpired()).containsExactly(item);
        assertThat(held.renewing()).isZero();
        assertThat(held.size()).isZero();
    }

    @Test
    void renewalOfOtherPartitionsDoesNotTouchThisOne() {
        ConsumerRecord<byte[], byte[]> r = record(3);
        held.add(r, item(r));
        held.renewAll();
        held.renewalsFailed(Set.of(new TopicPartition("t", 1)));
        assertThat(held.renewing()).isEqualTo(1);
        held.clear();
        assertThat(held.size()).isZero();
        assertThat(held.renewing()).isZero();
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>("t", 0, offset, null, new byte[] { 1 });
    }

    private WorkItem item(ConsumerRecord<byte[], byte[]> r) {
        return new WorkItem(partition, r.offset(), 0, 1, r.offset(), r.timestamp(), r.key(), r.value(), r.headers(),
                null, "v", null);
    }
}
