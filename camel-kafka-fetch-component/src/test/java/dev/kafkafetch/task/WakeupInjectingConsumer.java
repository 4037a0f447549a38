package dev.kafkafetch.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A {@link Consumer} that delegates to another one (typically Kafka's {@code MockConsumer}) and gives it the wakeup
 * semantics of a real {@code KafkaConsumer}, plus injected wakeups:
 * <ul>
 *   <li>{@link #wakeup()} makes the <em>next</em> blocking call throw {@link WakeupException}, whichever it is
 *       ({@link #BLOCKING}: poll, commitSync, committed, position, ...), not only {@code poll} as {@code MockConsumer}
 *       does. {@code poll} checks for a pending wakeup when it is entered and, when it returns no records, while it
 *       waits (up to its timeout, capped by {@code maxIdleWait}); a poll that returns records never throws, so a
 *       wakeup that arrives during such a poll (for example from a poll task of the delegate) lands "after poll's
 *       last wakeup check" and is thrown by the next blocking call, exactly the race a real consumer has.</li>
 *   <li>{@link #wakeupOnCall(String, int)} / {@link #wakeupOnNextCall(String)}: the n-th call (counted from now) of a
 *       method throws {@link WakeupException}, without any {@code wakeup()}. Any method may be chosen: a real consumer
 *       throws it from the blocking ones only, so choosing another one is stricter than Kafka, which is how the
 *       fetch task's wakeup rule is tested to cover every call.</li>
 *   <li>{@link #calls(String)}, {@link #wakeupCalls()}, {@link #awaitWakeupCalls(int, Duration)} and
 *       {@link #thrown()} tell what happened.</li>
 * </ul>
 * Method names are the {@link Consumer} method names; overloads count as one method. Thread-safe as far as its own
 * state goes; the delegate's thread-safety is the delegate's.
 */
public final class WakeupInjectingConsumer<K, V> implements Consumer<K, V> {

    public static final String POLL = "poll";
    public static final String COMMIT_SYNC = "commitSync";
    public static final String COMMITTED = "committed";
    public static final String POSITION = "position";
    /** The calls on which a real KafkaConsumer throws WakeupException after wakeup(). */
    public static final Set<String> BLOCKING = Set.of(POLL, COMMIT_SYNC, COMMITTED, POSITION, "partitionsFor",
            "listTopics", "offsetsForTimes", "beginningOffsets", "endOffsets", "clientInstanceId");

    private final Consumer<K, V> delegate;
    private final long maxIdleWaitMs;
    private final AtomicBoolean pendingWakeup = new AtomicBoolean();
    private final AtomicInteger wakeupCalls = new AtomicInteger();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    /** Per method: the call numbers (absolute) that throw. */
    private final Map<String, Set<Integer>> injections = new ConcurrentHashMap<>();
    private final List<String> thrown = new CopyOnWriteArrayList<>();
    private final Object idle = new Object();

    /** Wraps {@code delegate}; an empty poll waits up to 20 ms (or its timeout, if shorter) for a wakeup. */
    public WakeupInjectingConsumer(Consumer<K, V> delegate) {
        this(delegate, Duration.ofMillis(20));
    }

    /**
     * @param maxIdleWait how long an empty poll waits at most (capped by its own timeout), so that a loop around a
     *                    non-blocking delegate does not spin; a wakeup ends the wait
     */
    public WakeupInjectingConsumer(Consumer<K, V> delegate, Duration maxIdleWait) {
        this.delegate = delegate;
        this.maxIdleWaitMs = maxIdleWait.toMillis();
    }

    public Consumer<K, V> delegate() {
        return delegate;
    }

    /** The {@code nth} call (1 = the next one) of {@code method}, counted from now, throws WakeupException. */
    public WakeupInjectingConsumer<K, V> wakeupOnCall(String method, int nth) {
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be >= 1, was " + nth);
        }
        int at = counter(method).get() + nth;
        injections.computeIfAbsent(method, m -> ConcurrentHashMap.newKeySet()).add(at);
        return this;
    }

    /** The next call of the blocking method {@code method} throws WakeupException. */
    public WakeupInjectingConsumer<K, V> wakeupOnNextCall(String method) {
        return wakeupOnCall(method, 1);
    }

    /** How many times each method was called so far (any overload). */
    public Map<String, Integer> callCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        calls.forEach((method, n) -> counts.put(method, n.get()));
        return counts;
    }

    /** How many times {@code method} was called (any overload). */
    public int calls(String method) {
        return counter(method).get();
    }

    /** How many times {@link #wakeup()} was called. */
    public int wakeupCalls() {
        return wakeupCalls.get();
    }

    /** Waits until {@link #wakeup()} was called at least {@code atLeast} times in all; false on timeout. */
    public boolean awaitWakeupCalls(int atLeast, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (wakeupCalls.get() < atLeast) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    /** True while a wakeup() waits for the next blocking call. */
    public boolean wakeupPending() {
        return pendingWakeup.get();
    }

    /** Where a WakeupException was thrown, in order: {@code "commitSync#3"} = the third commitSync call. */
    public List<String> thrown() {
        return new ArrayList<>(thrown);
    }

    private AtomicInteger counter(String method) {
        return calls.computeIfAbsent(method, m -> new AtomicInteger());
    }

    /** Counts a call and throws when a wakeup is pending (blocking calls) or injected for it. */
    private void enter(String method) {
        int n = counter(method).incrementAndGet();
        Set<Integer> at = injections.get(method);
        boolean injected = at != null && at.remove(n);
        if (injected || BLOCKING.contains(method) && pendingWakeup.getAndSet(false)) {
            thrown.add(method + "#" + n + (injected ? " (injected)" : " (wakeup)"));
            throw new WakeupException();
        }
    }

    // ---- wakeup ----

    @Override
    public void wakeup() {
        pendingWakeup.set(true);
        wakeupCalls.incrementAndGet();
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    // ---- blocking calls ----

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        enter(POLL);
        ConsumerRecords<K, V> records = delegate.poll(timeout);
        if (!records.isEmpty()) {
            return records; // like the real consumer: no wakeup check between fetching and returning records
        }
        long waitMs = Math.min(timeout.toMillis(), maxIdleWaitMs);
        if (waitMs > 0) {
            synchronized (idle) {
                if (!pendingWakeup.get()) {
                    try {
                        idle.wait(waitMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptException(e);
                    }
                }
            }
        }
        if (pendingWakeup.getAndSet(false)) {
            thrown.add(POLL + "#" + calls(POLL) + " (wakeup while waiting)");
            throw new WakeupException();
        }
        return records;
    }

    @Override
    public void commitSync() {
        enter(COMMIT_SYNC);
        delegate.commitSync();
    }

    @Override
    public void commitSync(Duration timeout) {
        enter(COMMIT_SYNC);
        delegate.commitSync(timeout);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        enter(COMMIT_SYNC);
        delegate.commitSync(offsets);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        enter(COMMIT_SYNC);
        delegate.commitSync(offsets, timeout);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        enter(COMMITTED);
        return delegate.committed(partitions);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        enter(COMMITTED);
        return delegate.committed(partitions, timeout);
    }

    @Override
    public long position(TopicPartition partition) {
        enter(POSITION);
        return delegate.position(partition);
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        enter(POSITION);
        return delegate.position(partition, timeout);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        enter("clientInstanceId");
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        enter("partitionsFor");
        return delegate.partitionsFor(topic);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
        enter("partitionsFor");
        return delegate.partitionsFor(topic, timeout);
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics() {
        enter("listTopics");
        return delegate.listTopics();
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        enter("listTopics");
        return delegate.listTopics(timeout);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch) {
        enter("offsetsForTimes");
        return delegate.offsetsForTimes(timestampsToSearch);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch,
                                                                   Duration timeout) {
        enter("offsetsForTimes");
        return delegate.offsetsForTimes(timestampsToSearch, timeout);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        enter("beginningOffsets");
        return delegate.beginningOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        enter("beginningOffsets");
        return delegate.beginningOffsets(partitions, timeout);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        enter("endOffsets");
        return delegate.endOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        enter("endOffsets");
        return delegate.endOffsets(partitions, timeout);
    }

    // ---- calls that never throw WakeupException (counted only) ----

    @Override
    public Set<TopicPartition> assignment() {
        enter("assignment");
        return delegate.assignment();
    }

    @Override
    public Set<String> subscription() {
        enter("subscription");
        return delegate.subscription();
    }

    @Override
    public void subscribe(Collection<String> topics) {
        enter("subscribe");
        delegate.subscribe(topics);
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
        enter("subscribe");
        delegate.subscribe(topics, callback);
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
        enter("assign");
        delegate.assign(partitions);
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
        enter("subscribe");
        delegate.subscribe(pattern, callback);
    }

    @Override
    public void subscribe(Pattern pattern) {
        enter("subscribe");
        delegate.subscribe(pattern);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
        enter("subscribe");
        delegate.subscribe(pattern, callback);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
        enter("subscribe");
        delegate.subscribe(pattern);
    }

    @Override
    public void unsubscribe() {
        enter("unsubscribe");
        delegate.unsubscribe();
    }

    @Override
    public void commitAsync() {
        enter("commitAsync");
        delegate.commitAsync();
    }

    @Override
    public void commitAsync(OffsetCommitCallback callback) {
        enter("commitAsync");
        delegate.commitAsync(callback);
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        enter("commitAsync");
        delegate.commitAsync(offsets, callback);
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public void seek(TopicPartition partition, long offset) {
        enter("seek");
        delegate.seek(partition, offset);
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        enter("seek");
        delegate.seek(partition, offsetAndMetadata);
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        enter("seekToBeginning");
        delegate.seekToBeginning(partitions);
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        enter("seekToEnd");
        delegate.seekToEnd(partitions);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        enter("metrics");
        return delegate.metrics();
    }

    @Override
    public Set<TopicPartition> paused() {
        enter("paused");
        return delegate.paused();
    }

    @Override
    public void pause(Collection<TopicPartition> partitions) {
        enter("pause");
        delegate.pause(partitions);
    }

    @Override
    public void resume(Collection<TopicPartition> partitions) {
        enter("resume");
        delegate.resume(partitions);
    }

    @Override
    public OptionalLong currentLag(TopicPartition topicPartition) {
        enter("currentLag");
        return delegate.currentLag(topicPartition);
    }

    @Override
    public ConsumerGroupMetadata groupMetadata() {
        enter("groupMetadata");
        return delegate.groupMetadata();
    }

    @Override
    public void enforceRebalance() {
        enter("enforceRebalance");
        delegate.enforceRebalance();
    }

    @Override
    public void enforceRebalance(String reason) {
        enter("enforceRebalance");
        delegate.enforceRebalance(reason);
    }

    @Override
    public void close() {
        enter("close");
        delegate.close();
    }

    @Override
    public void close(Duration timeout) {
        enter("close");
        delegate.close(timeout);
    }

    @Override
    public void close(CloseOptions option) {
        enter("close");
        delegate.close(option);
    }
}
