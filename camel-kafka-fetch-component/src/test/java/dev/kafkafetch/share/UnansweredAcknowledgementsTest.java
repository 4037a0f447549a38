package dev.kafkafetch.share;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link UnansweredAcknowledgements} counts as waiting for the broker's answer. */
class UnansweredAcknowledgementsTest {

    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), 0, "t");
    private static final long LONG_LOCK = TimeUnit.MINUTES.toNanos(1);

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>("t", 0, offset, null, null);
    }

    @Test
    void aRenewalWaitsUntilItsAnswerComes() {
        UnansweredAcknowledgements u = new UnansweredAcknowledgements();
        u.given(record(1), AcknowledgeType.RENEW);
        u.given(record(2), AcknowledgeType.ACCEPT);
        assertThat(u.renewalUnanswered(LONG_LOCK)).isTrue();
        u.answered(Map.of(PARTITION, Set.of(1L)));
        assertThat(u.renewalUnanswered(LONG_LOCK)).as("renewal answered").isFalse();
        assertThat(u.none()).as("the accept is still unanswered").isFalse();
        u.answered(Map.of(PARTITION, Set.of(2L)));
        assertThat(u.none()).isTrue();
    }

    @Test
    void anOutcomeGivenAfterARenewalOfTheSameRecordReplacesIt() {
        UnansweredAcknowledgements u = new UnansweredAcknowledgements();
        u.given(record(1), AcknowledgeType.RENEW);
        u.given(record(1), AcknowledgeType.ACCEPT);
        assertThat(u.anyRenewal()).isFalse();
        assertThat(u.none()).isFalse();
    }

    @Test
    void renewalsUnansweredForALockAreForgotten() throws InterruptedException {
        UnansweredAcknowledgements u = new UnansweredAcknowledgements();
        u.given(record(1), AcknowledgeType.RENEW);
        u.given(record(2), AcknowledgeType.ACCEPT);
        Thread.sleep(2);
        assertThat(u.renewalUnanswered(TimeUnit.MILLISECONDS.toNanos(1))).as("its lock is gone").isFalse();
        assertThat(u.anyRenewal()).isFalse();
        u.answered(Map.of(PARTITION, Set.of(2L)));
        assertThat(u.none()).as("nothing left waiting for the forgotten renewal").isTrue();
        u.given(record(3), AcknowledgeType.RENEW);
        assertThat(u.renewalUnanswered(LONG_LOCK)).as("a new renewal counts from its own time").isTrue();
    }
}
