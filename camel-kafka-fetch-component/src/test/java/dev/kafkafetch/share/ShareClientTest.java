package dev.kafkafetch.share;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The wakeup rule of {@link ShareClient}, on a scripted consumer: a commit a wakeup cut short still waits for the answer. */
class ShareClientTest {

    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), 0, "t");

    /** A consumer whose first commitSync is cut short by a wakeup; the answer comes with its {@code answerOn}-th call. */
    private static final class Scripted {
        final List<String> calls = new ArrayList<>();
        final int answerOn;
        AcknowledgementCommitCallback callback;
        int commits;

        Scripted(int answerOn) {
            this.answerOn = answerOn;
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
                                throw new WakeupException();
                            }
                            if (commits == answerOn) {
                                callback.onComplete(Map.of(PARTITION, Set.of(7L)), null);
                            }
                            yield Map.of();
                        }
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
