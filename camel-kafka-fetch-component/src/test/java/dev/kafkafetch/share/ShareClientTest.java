package dev.kafkafetch.share;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rules of {@link ShareClient}, on a scripted consumer: a commit a wakeup cut short still waits for the answer, and a
 * poll fetches nothing while a lock renewal is unanswered.
 */
class ShareClientTest {

    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), 0, "t");

    /**
     * A consumer whose first commitSync is cut short (by a wakeup, or {@code firstCommit}); the answer comes with its
     * {@code answerOn}-th commit, synchronous or not.
     */
    private static final class Scripted {
        final List<String> calls = new ArrayList<>();
        final int answerOn;
        final RuntimeException firstCommit;
        AcknowledgementCommitCallback callback;
        int commits;

        Scripted(int answerOn) {
            this(answerOn, new WakeupException());
        }

        Scripted(int answerOn, RuntimeException firstCommit) {
            this.answerOn = answerOn;
            this.firstCommit = firstCommit;
        }

        private void answerIfDue() {
            if (commits == answerOn) {
                callback.onComplete(Map.of(PARTITION, Set.of(7L)), null);
            }
        }

        @SuppressWarnings("unchecked")
        ShareConsumer<byte[], byte[]> consumer() {
            return (ShareConsumer<byte[], byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] { ShareConsumer.class }, (proxy, method, args) -> switch (method.getName()) {
                        case "setAcknowledgementCommitCallback" -> {
                            callback = (AcknowledgementCommitCallback) args[0];
                            yield null;
                        }
                        case "acknowledge" -> {
                            calls.add("acknowledge " + args[1]);
                            yield null;
                        }
                        case "commitSync" -> {
                            commits++;
                            calls.add("commitSync");
                            if (commits == 1) {
                                throw firstCommit;
                            }
                            answerIfDue();
                            yield Map.of();
                        }
                        case "commitAsync" -> {
                            commits++;
                            calls.add("commitAsync");
                            answerIfDue();
                            yield null;
                        }
                        case "acquisitionLockTimeoutMs" -> Optional.of(30_000);
                        case "poll" -> {
                            calls.add("poll " + ((Duration) args[0]).toMillis());
                            yield ConsumerRecords.empty();
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    @Test
    void aCommitAWakeupCutShortWaitsForTheBrokersAnswerBeforeThePoll() {
        Scripted scripted = new Scripted(4);
        ShareClient client = new ShareClient(scripted.consumer(), "c");
        List<Set<Long>> heard = new ArrayList<>();
        client.setAcknowledgementCommitCallback((offsets, exception) -> heard.add(offsets.get(PARTITION)));

        client.acknowledge(new ConsumerRecord<>("t", 0, 7L, null, null), AcknowledgeType.RENEW);
        client.commitSync(5000);
        client.poll(1000);

        assertThat(heard).as("the answer, heard by the task").containsExactly(Set.of(7L));
        assertThat(scripted.calls).as("the poll comes after the answer, at once (the wakeup was meant for it)")
                .containsExactly("acknowledge renew", "commitSync", "commitSync", "commitSync", "commitSync", "poll 0");
    }

    @Test
    void aCommitAWakeupCutShortGivesUpOnTheAnswerAtItsTimeout() {
        Scripted scripted = new Scripted(Integer.MAX_VALUE);
        ShareClient client = new ShareClient(scripted.consumer(), "c");
        client.acknowledge(new ConsumerRecord<>("t", 0, 7L, null, null), AcknowledgeType.RENEW);
        long start = System.nanoTime();
        client.commitSync(50);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the commit timeout")
                .isGreaterThanOrEqualTo(Duration.ofMillis(50)).isLessThan(Duration.ofSeconds(10));
        assertThat(scripted.commits).as("looked for the answer more than once").isGreaterThan(2);
    }

    /** A client given one acknowledgement of offset 7, whose commit then timed out (the scripted first commit). */
    private static ShareClient afterATimedOutCommit(Scripted scripted, AcknowledgeType type) {
        ShareClient client = new ShareClient(scripted.consumer(), "c");
        client.acknowledge(new ConsumerRecord<>("t", 0, 7L, null, null), type);
        assertThatThrownBy(() -> client.commitSync(1)).isInstanceOf(TimeoutException.class);
        return client;
    }

    @Test
    void aPollAfterARenewalWhoseCommitTimedOutWaitsForTheAnswerBeforeFetching() {
        Scripted scripted = new Scripted(3, new TimeoutException("slow broker"));
        ShareClient client = afterATimedOutCommit(scripted, AcknowledgeType.RENEW);
        client.poll(1000);
        assertThat(scripted.calls).as("the poll looks for the answer first, then polls")
                .hasSize(5).startsWith("acknowledge renew", "commitSync", "commitAsync", "commitAsync");
        assertThat(scripted.calls.get(4)).startsWith("poll ");
    }

    @Test
    void aPollWithoutTheRenewalsAnswerFetchesNothing() {
        Scripted scripted = new Scripted(Integer.MAX_VALUE, new TimeoutException("slow broker"));
        ShareClient client = afterATimedOutCommit(scripted, AcknowledgeType.RENEW);
        assertThat(client.poll(20).isEmpty()).as("no records").isTrue();
        assertThat(client.poll(0).isEmpty()).as("no records").isTrue();
        long start = System.nanoTime();
        assertThat(client.poll(60_000).isEmpty()).as("no records").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a long poll's wait for the answer is short: a stop"
                                                                   + " cannot wake it")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(scripted.calls).as("the consumer was never polled").allMatch(c -> !c.startsWith("poll"));
        assertThat(scripted.commits).as("looked for the answer more than once").isGreaterThan(3);
    }

    @Test
    void aPollAfterAcceptsNeedsNoAnswer() {
        Scripted scripted = new Scripted(Integer.MAX_VALUE, new TimeoutException("slow broker"));
        ShareClient client = afterATimedOutCommit(scripted, AcknowledgeType.ACCEPT);
        client.poll(0);
        assertThat(scripted.calls).containsExactly("acknowledge accept", "commitSync", "poll 0");
    }

    @Test
    void aCommitWithoutAWakeupReturnsTheBrokersAnswerAtOnce() {
        Scripted scripted = new Scripted(1);
        scripted.commits = 1; // no wakeup: the next commit is the second
        ShareClient client = new ShareClient(scripted.consumer(), "c");
        client.acknowledge(new ConsumerRecord<>("t", 0, 7L, null, null), AcknowledgeType.ACCEPT);
        client.commitSync(5000);
        client.poll(1000);
        assertThat(scripted.calls).containsExactly("acknowledge accept", "commitSync", "poll 1000");
    }
}
