package dev.kafkafetch.share;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import dev.kafkafetch.metrics.ClientReachability;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A share fetch task's KafkaShareConsumer, and the one place where its wakeup rule is kept: other threads wake it
 * only to stop it, and <b>only {@link #poll} ends on a wakeup</b>; any other call that a wakeup interrupts
 * ({@code commitSync}, {@code close}, even the local {@code acknowledge}) is carried out again, and the next poll
 * then returns at once. So no acknowledgement commit or lock renewal is left half-done by a wakeup: a commitSync the
 * wakeup cut short has sent what it was given already, and waits on for the broker's answers (which come through the
 * acknowledgement commit callback) before it returns, and a poll fetches nothing while a renewal is unanswered (a
 * commit that timed out leaves it so). A poll made before a renewal's answer would fetch new records, which would then
 * wait in the client while the renewed ones run, and be given back by a close.
 * <p>
 * Only the fetch thread calls this object, except {@link #wakeup()} (docs/design.md §4.1).
 */
final class ShareClient {

    /** How often a commit cut short by a wakeup looks for the broker's answers. */
    private static final long ANSWER_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * The longest a poll waits for renewals' answers before it returns no records: a stop's wakeup cannot end that
     * wait (it is no client call), and the callers poll again.
     */
    private static final long MAX_ANSWER_WAIT_MS = 50;
    /** The broker's default acquisition lock, until a poll reports the group's. */
    private static final int DEFAULT_LOCK_MS = 30_000;

    private final ShareConsumer<byte[], byte[]> consumer;
    private final String clientId;
    private final ClientReachability reachability = new ClientReachability();
    private final UnansweredAcknowledgements unanswered = new UnansweredAcknowledgements();
    private AcknowledgementCommitCallback callback = (offsets, exception) -> {
    };
    private boolean wakeupPending;

    /** @param clientId the configured client id, or null (Kafka then generates one) */
    ShareClient(ShareConsumer<byte[], byte[]> consumer, String clientId) {
        this.consumer = consumer;
        this.clientId = clientId != null ? clientId
                : metrics().keySet().stream().map(name -> name.tags().get("client-id")).filter(Objects::nonNull)
                        .findFirst().orElse(null);
        run(() -> consumer.setAcknowledgementCommitCallback((offsets, exception) -> {
            unanswered.answered(offsets);
            callback.onComplete(offsets, exception);
        }));
    }

    String clientId() {
        return clientId;
    }

    ClientReachability reachability(long nowMs) {
        reachability.update(metrics(), nowMs);
        return reachability;
    }

    ClientReachability reachability() {
        return reachability;
    }

    /** Any thread: makes the current or next poll return early. */
    void wakeup() {
        consumer.wakeup();
    }

    /**
     * Polls; the only call that ends on a wakeup ({@link WakeupException}). While a lock renewal has no answer yet (its
     * commit timed out, or a wakeup cut it short and its wait timed out), the poll fetches nothing: it looks for the
     * answers until its timeout (at most 50 ms) and, without them, returns no records and leaves the consumer
     * unpolled. A renewal unanswered for a whole acquisition lock no longer counts: its locks are gone either way.
     */
    ConsumerRecords<byte[], byte[]> poll(long timeoutMs) {
        long timeout = wakeupPending ? 0 : timeoutMs;
        wakeupPending = false;
        if (unanswered.anyRenewal()) {
            long start = System.nanoTime();
            if (!renewalsAnswered(start + TimeUnit.MILLISECONDS.toNanos(Math.min(timeout, MAX_ANSWER_WAIT_MS)))) {
                return ConsumerRecords.empty();
            }
            timeout = Math.max(0, timeout - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        return consumer.poll(Duration.ofMillis(timeout));
    }

    /**
     * Whether the renewals given have their answers, looking until {@code deadline}: each asynchronous
     * commit hands over the answers that came, and sends without waiting what was given since.
     */
    private boolean renewalsAnswered(long deadline) {
        long lockNanos = TimeUnit.MILLISECONDS.toNanos(acquisitionLockTimeoutMs().orElse(DEFAULT_LOCK_MS));
        while (unanswered.renewalUnanswered(lockNanos)) {
            run(consumer::commitAsync);
            if (!unanswered.renewalUnanswered(lockNanos)) {
                return true;
            }
            if (wakeupPending || System.nanoTime() >= deadline) {
                return false;
            }
            LockSupport.parkNanos(ANSWER_CHECK_NANOS);
        }
        return true;
    }

    void subscribe(List<String> topics) {
        run(() -> consumer.subscribe(topics));
    }

    /**
     * Local: sends nothing, the next commit or poll does. A real consumer never throws WakeupException here; should
     * one, the acknowledgement is given again, like any other call's.
     */
    void acknowledge(ConsumerRecord<byte[], byte[]> record, AcknowledgeType type) {
        run(() -> consumer.acknowledge(record, type));
        unanswered.given(record, type);
    }

    /**
     * Sends the acknowledgements given so far and waits for the broker's answer, per partition; after a wakeup the
     * answers come through the callback only (the map is then empty), and this waits for them within the timeout.
     */
    Map<TopicIdPartition, Optional<KafkaException>> commitSync(long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            return consumer.commitSync(Duration.ofMillis(timeoutMs));
        } catch (WakeupException e) {
            wakeupPending = true; // meant for the poll
        }
        // what was sent is answered later: each commit with nothing to send hands over the answers that came
        while (!unanswered.none() && System.nanoTime() < deadline) {
            call(() -> consumer.commitSync(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
            if (!unanswered.none()) {
                LockSupport.parkNanos(ANSWER_CHECK_NANOS);
            }
        }
        return Map.of();
    }

    /** Hears the broker's answer to every acknowledgement (on the fetch thread, inside poll, commitSync or close). */
    void setAcknowledgementCommitCallback(AcknowledgementCommitCallback callback) {
        this.callback = callback;
    }

    /** The acquisition lock duration the broker reported with the last records, if known. */
    Optional<Integer> acquisitionLockTimeoutMs() {
        return call(consumer::acquisitionLockTimeoutMs);
    }

    Map<MetricName, ? extends Metric> metrics() {
        return call(consumer::metrics);
    }

    /** Closes (committing the acknowledgements given, releasing the rest); never throws. */
    void close(long timeoutMs) {
        try {
            run(() -> consumer.close(Duration.ofMillis(timeoutMs)));
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
                wakeupPending = true; // meant for the poll: do the call again, the next poll returns at once
            }
        }
    }
}
