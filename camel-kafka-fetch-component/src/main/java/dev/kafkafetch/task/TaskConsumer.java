package dev.kafkafetch.task;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.TaskMetrics;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The fetch task's KafkaConsumer, and the one place where its wakeup rule is kept.
 * <p>
 * <b>The wakeup rule.</b> Other threads signal the fetch thread with {@link #wakeup()} (stop, pause, resume, a manual
 * commit, room in the window, a failed record asking for a seek back). Kafka makes the <i>next</i> blocking call
 * throw {@link WakeupException}, whichever it is: {@code poll}, but also {@code commitSync} or {@code committed},
 * inside the loop or inside a rebalance callback. So: <b>only {@link #poll} ends on a wakeup</b>; every other call
 * that is interrupted by one is carried out again (the wakeup was meant for the poll, and the calls are idempotent), and
 * the next poll then returns at once, so the signal is still seen. No commit, seek back or rebalance callback is ever
 * left half-done by a wakeup. (Waking the poll for every signal instead of shortening its timeout keeps manual commits
 * and back-pressure resumes prompt.)
 * <p>
 * Only the fetch thread calls this object, except {@link #wakeup()} (docs/design.md §4.1).
 */
final class TaskConsumer implements CommitManager.Committer {

    private final Consumer<byte[], byte[]> consumer;
    private final String clientId;
    private final ClientReachability reachability = new ClientReachability();
    /** A wakeup was taken by a call other than poll: the next poll must not wait. */
    private boolean wakeupPending;

    /** @param clientId the configured client id, or null (Kafka then generates one) */
    TaskConsumer(Consumer<byte[], byte[]> consumer, String clientId) {
        this.consumer = consumer;
        this.clientId = clientId != null ? clientId
                : metrics().keySet().stream().map(name -> name.tags().get("client-id")).filter(Objects::nonNull)
                        .findFirst().orElse(null);
    }

    /** Who this consumer is in its group now; also reads whether it reaches the brokers (its own metrics). */
    TaskMetrics.Membership membership(long nowMs) {
        reachability.update(metrics(), nowMs);
        try {
            ConsumerGroupMetadata meta = groupMetadata();
            return new TaskMetrics.Membership(meta.groupInstanceId().orElse(null), meta.memberId(),
                    meta.generationId(), clientId);
        } catch (RuntimeException e) {
            return new TaskMetrics.Membership(null, null, -1, clientId); // not in a group yet
        }
    }

    ClientReachability reachability() {
        return reachability;
    }

    /** Any thread: makes the current or next poll return early. */
    void wakeup() {
        consumer.wakeup();
    }

    /** Polls; the only call that ends on a wakeup ({@link WakeupException}). */
    ConsumerRecords<byte[], byte[]> poll(long timeoutMs) {
        long timeout = wakeupPending ? 0 : timeoutMs;
        wakeupPending = false;
        return consumer.poll(Duration.ofMillis(timeout));
    }

    /** True when a wakeup was taken by another call since the last poll. */
    boolean wakeupPending() {
        return wakeupPending;
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        run(() -> consumer.commitSync(offsets, timeout));
    }

    Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return call(() -> consumer.committed(partitions, timeout));
    }

    long position(TopicPartition partition, Duration timeout) {
        return call(() -> consumer.position(partition, timeout));
    }

    void subscribe(List<String> topics, ConsumerRebalanceListener listener) {
        run(() -> consumer.subscribe(topics, listener));
    }

    void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        run(() -> consumer.subscribe(pattern, listener));
    }

    void seek(TopicPartition partition, long offset) {
        run(() -> consumer.seek(partition, offset));
    }

    void seekToBeginning(Collection<TopicPartition> partitions) {
        run(() -> consumer.seekToBeginning(partitions));
    }

    void seekToEnd(Collection<TopicPartition> partitions) {
        run(() -> consumer.seekToEnd(partitions));
    }

    void pause(Collection<TopicPartition> partitions) {
        run(() -> consumer.pause(partitions));
    }

    void resume(Collection<TopicPartition> partitions) {
        run(() -> consumer.resume(partitions));
    }

    Set<TopicPartition> assignment() {
        return call(consumer::assignment);
    }

    ConsumerGroupMetadata groupMetadata() {
        return call(consumer::groupMetadata);
    }

    OptionalLong currentLag(TopicPartition partition) {
        return call(() -> consumer.currentLag(partition));
    }

    Map<MetricName, ? extends Metric> metrics() {
        return call(consumer::metrics);
    }

    /** Closes, leaving the group; never throws. */
    void close(Duration timeout) {
        try {
            consumer.close(CloseOptions.timeout(timeout));
        } catch (RuntimeException e) {
            // closing anyway: nothing more can be done with this consumer
        }
    }

    private void run(Runnable call) {
        call(() -> {
            call.run();
            return null;
        });
    }

    private <T> T call(Supplier<T> call) {
        while (true) {
            try {
                return call.get();
            } catch (WakeupException e) {
                wakeupPending = true; // meant for the poll: do the call again, and let the next poll return at once
            }
        }
    }
}
