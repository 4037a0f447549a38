package dev.kafkafetch.it.share;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.kafkafetch.KafkaClientFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A {@link KafkaClientFactory} whose share consumers are real {@link KafkaShareConsumer}s with one fault armed at a
 * time, fired once by whichever consumer makes the call first: on the next {@code commitSync} (a lock renewal's
 * commit: optionally first waiting, so the acquisition lock runs out and the broker refuses the renewal, then throwing
 * after the real commit, so its per-partition results are lost) or on the next zero-time {@code poll} (the renewal's
 * poll; or only the one made while its member leaves the group), or on the next poll that returns a record on a given delivery (the records are kept back, as a fetch answered
 * after the poll gave up leaves them in the client's buffer, and the poll waits for a wakeup and throws as a woken
 * poll does; the next poll returns them); or on every close (held up before the real one). {@link #fired()} tells the test that its premise happened.
 */
public final class ShareFaults implements KafkaClientFactory {

    private record CommitFault(long delayMs, RuntimeException thrown) {
    }

    private record KeepBackFault(int delivery, RuntimeException thrown) {
    }

    private final AtomicReference<CommitFault> commitFault = new AtomicReference<>();
    private final AtomicReference<RuntimeException> zeroPollFault = new AtomicReference<>();
    private final AtomicReference<RuntimeException> leavingZeroPollFault = new AtomicReference<>();
    private final AtomicInteger keepBackDelivery = new AtomicInteger();
    private final AtomicReference<KeepBackFault> keepBackFault = new AtomicReference<>();
    private final AtomicLong slowCloseMs = new AtomicLong();
    private final AtomicLong lateWakeupMs = new AtomicLong();
    private final AtomicInteger lostFetchDelivery = new AtomicInteger();
    private final AtomicInteger lostFetchRecords = new AtomicInteger();
    private final AtomicInteger fired = new AtomicInteger();
    private final AtomicInteger adminFailures = new AtomicInteger();

    /** The next commitSync waits {@code delayMs}, commits for real, then throws {@code thrown} (if not null). */
    public void armCommit(long delayMs, RuntimeException thrown) {
        commitFault.set(new CommitFault(delayMs, thrown));
    }

    /** The next zero-time poll throws. */
    public void armZeroPoll(RuntimeException thrown) {
        zeroPollFault.set(thrown);
    }

    /** The next zero-time poll made while a member leaves its group (called from the task's ShareLeave) throws. */
    public void armLeavingZeroPoll(RuntimeException thrown) {
        leavingZeroPollFault.set(thrown);
    }

    /**
     * The next poll returning a record on delivery {@code delivery} (or later) keeps its records back until the
     * consumer is woken up (a stop), throws as a woken poll does, and returns them from the poll after.
     */
    public void armKeepBack(int delivery) {
        keepBackDelivery.set(delivery);
    }

    /**
     * The next poll returning a record on delivery {@code delivery} (or later) keeps its records back and throws
     * {@code thrown} at once (a poll that failed after its fetch was answered); the next poll returns them.
     */
    public void armKeepBackAndFail(int delivery, RuntimeException thrown) {
        keepBackFault.set(new KeepBackFault(delivery, thrown));
    }

    /**
     * Every close from now on first waits {@code delayMs} (a close the network holds up), while the client goes on
     * fetching as a real one does until it closes; each such close counts as fired.
     */
    public void armSlowClose(long delayMs) {
        slowCloseMs.set(delayMs);
    }

    /**
     * Every wakeup from now on reaches the real consumer {@code delayMs} later (a fetch thread that only notices the
     * stop once a call it is in returns); each counts as fired.
     */
    public void armLateWakeup(long delayMs) {
        lateWakeupMs.set(delayMs);
    }

    /**
     * From now on, a consumer asked to wake up (a stop or suspend reached it) never hands its caller records on
     * delivery {@code delivery} (or later) that a poll fetched: as a fetch the broker answers after the member's last
     * poll, they wait in the client until its close gives them back; its later polls return nothing.
     */
    public void armLostFetchWhileLeaving(int delivery) {
        lostFetchDelivery.set(delivery);
    }

    /** How many records a fetch acquired that a leaving consumer never handed on (see armLostFetchWhileLeaving). */
    public int lostFetchRecords() {
        return lostFetchRecords.get();
    }

    /** The next {@code times} admin clients cannot be created (as when the brokers refuse or cannot be reached). */
    public void failAdmin(int times) {
        adminFailures.set(times);
    }

    /** How many armed faults fired. */
    public int fired() {
        return fired.get();
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Properties properties) {
        return KafkaClientFactory.DEFAULT.getConsumer(properties);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Properties properties) {
        return KafkaClientFactory.DEFAULT.getProducer(properties);
    }

    @Override
    public Admin getAdmin(Properties properties) {
        if (adminFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            fired.incrementAndGet();
            throw new KafkaException("injected: no admin client");
        }
        return KafkaClientFactory.super.getAdmin(properties);
    }

    @Override
    public ShareConsumer<byte[], byte[]> getShareConsumer(Properties properties) {
        return new Faulty(new KafkaShareConsumer<>(properties));
    }

    private final class Faulty implements ShareConsumer<byte[], byte[]> {
        private final ShareConsumer<byte[], byte[]> real;
        private final CountDownLatch wokenUp = new CountDownLatch(1);
        private final CountDownLatch askedToWake = new CountDownLatch(1);
        private ConsumerRecords<byte[], byte[]> keptBack;
        private boolean holdingLostFetch;
        /** A wakeup no poll of this fault has ended yet (one-shot, as the real consumer's). */
        private final AtomicBoolean wakeupPending = new AtomicBoolean();

        Faulty(ShareConsumer<byte[], byte[]> real) {
            this.real = real;
        }

        @Override
        public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            if (holdingLostFetch) {
                return nothingUntilWoken(timeout);
            }
            if (keptBack != null) {
                ConsumerRecords<byte[], byte[]> records = keptBack;
                keptBack = null;
                return records;
            }
            if (timeout.isZero() && leaving()) {
                RuntimeException fault = leavingZeroPollFault.getAndSet(null);
                if (fault != null) {
                    fired.incrementAndGet();
                    throw fault;
                }
            }
            if (timeout.isZero()) {
                RuntimeException fault = zeroPollFault.getAndSet(null);
                if (fault != null) {
                    fired.incrementAndGet();
                    throw fault;
                }
            }
            ConsumerRecords<byte[], byte[]> records = real.poll(timeout);
            KeepBackFault failing = keepBackFault.get();
            if (failing != null && reaches(records, failing.delivery()) && keepBackFault.compareAndSet(failing, null)) {
                keptBack = records;
                fired.incrementAndGet();
                throw failing.thrown();
            }
            int lost = lostFetchDelivery.get();
            if (lost > 0 && askedToWake.getCount() == 0 && reaches(records, lost)) {
                holdingLostFetch = true;
                lostFetchRecords.addAndGet(records.count());
                fired.incrementAndGet();
                return nothingUntilWoken(timeout);
            }
            int delivery = keepBackDelivery.get();
            if (delivery > 0 && reaches(records, delivery) && keepBackDelivery.compareAndSet(delivery, 0)) {
                keptBack = records;
                fired.incrementAndGet();
                try {
                    wokenUp.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new WakeupException();
            }
            return records;
        }

        /** A poll that brings nothing: it waits its timeout, or ends as a woken poll does. */
        private ConsumerRecords<byte[], byte[]> nothingUntilWoken(Duration timeout) {
            try {
                if (wokenUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS) && wakeupPending.getAndSet(false)) {
                    throw new WakeupException();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsumerRecords.empty();
        }

        /** Whether this poll is the member's leave's (its caller is the share task's ShareLeave). */
        private static boolean leaving() {
            return StackWalker.getInstance()
                    .walk(frames -> frames.anyMatch(f -> f.getClassName().endsWith(".ShareLeave")));
        }

        private static boolean reaches(ConsumerRecords<byte[], byte[]> records, int delivery) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.deliveryCount().orElse((short) 0) >= delivery) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Map<TopicIdPartition, Optional<KafkaException>> commitSync(Duration timeout) {
            CommitFault fault = commitFault.getAndSet(null);
            if (fault == null) {
                return real.commitSync(timeout);
            }
            fired.incrementAndGet();
            try {
                Thread.sleep(fault.delayMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Map<TopicIdPartition, Optional<KafkaException>> results = real.commitSync(timeout);
            if (fault.thrown() != null) {
                throw fault.thrown();
            }
            return results;
        }

        @Override
        public Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
            return commitSync(Duration.ofMillis(Long.MAX_VALUE));
        }

        @Override
        public Set<String> subscription() {
            return real.subscription();
        }

        @Override
        public void subscribe(Collection<String> topics) {
            real.subscribe(topics);
        }

        @Override
        public void unsubscribe() {
            real.unsubscribe();
        }

        @Override
        public void acknowledge(ConsumerRecord<byte[], byte[]> record) {
            real.acknowledge(record);
        }

        @Override
        public void acknowledge(ConsumerRecord<byte[], byte[]> record, AcknowledgeType type) {
            real.acknowledge(record, type);
        }

        @Override
        public void acknowledge(String topic, int partition, long offset, AcknowledgeType type) {
            real.acknowledge(topic, partition, offset, type);
        }

        @Override
        public void commitAsync() {
            real.commitAsync();
        }

        @Override
        public void setAcknowledgementCommitCallback(AcknowledgementCommitCallback callback) {
            real.setAcknowledgementCommitCallback(callback);
        }

        @Override
        public Uuid clientInstanceId(Duration timeout) {
            return real.clientInstanceId(timeout);
        }

        @Override
        public Optional<Integer> acquisitionLockTimeoutMs() {
            return real.acquisitionLockTimeoutMs();
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return real.metrics();
        }

        @Override
        public void registerMetricForSubscription(KafkaMetric metric) {
            real.registerMetricForSubscription(metric);
        }

        @Override
        public void unregisterMetricFromSubscription(KafkaMetric metric) {
            real.unregisterMetricFromSubscription(metric);
        }

        @Override
        public void close() {
            real.close();
        }

        @Override
        public void close(Duration timeout) {
            long delayMs = slowCloseMs.get();
            if (delayMs > 0) {
                fired.incrementAndGet();
                try {
                    Thread.sleep(delayMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            real.close(timeout);
        }

        @Override
        public void wakeup() {
            askedToWake.countDown();
            long delayMs = lateWakeupMs.get();
            if (delayMs > 0) {
                fired.incrementAndGet();
                CompletableFuture.runAsync(this::wakeNow,
                        CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
            } else {
                wakeNow();
            }
        }

        private void wakeNow() {
            wakeupPending.set(true);
            wokenUp.countDown();
            real.wakeup();
        }
    }
}
