package dev.kafkafetch.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.error.DeadLetterPublisher;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.RateMeter;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.processor.Dispatcher;
import dev.kafkafetch.processor.ItemProcessor;
import dev.kafkafetch.processor.RecordDecoder;
import dev.kafkafetch.processor.WorkItem;
import dev.kafkafetch.window.PartitionWindow;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetch task: one thread, one KafkaConsumer, which nothing else touches (other threads only call
 * {@code wakeup()}). It creates and subscribes the consumer (with retry and backoff), then polls, hands records to the
 * {@link Dispatcher}, drains completions into the {@link PartitionWindow}s and commits what is finished.
 * <p>
 * Guarantees: it commits at most the first unfinished offset of each partition; polled-but-unfinished records never
 * exceed {@code maxInFlightRecords} (partitions are paused instead); it never waits on the route between two polls
 * (waits happen only on revoke and shutdown, bounded by their timeouts); on revoke it commits what is finished of the
 * revoked partitions and drops the rest, to be re-delivered to their new owner.
 */
public final class KafkaFetchRecords implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchRecords.class);
    /** Poll timeout while records are in flight, so completions are drained and commits made promptly. */
    private static final long BUSY_POLL_MS = 20;

    private final TaskSettings settings;
    private final String threadName;
    private final Function<Properties, Consumer<byte[], byte[]>> consumerFactory;
    private final Supplier<RecordDecoder> decoderFactory;
    private final ExceptionHandler exceptionHandler;
    private final DeadLetterPublisher deadLetters;
    private final Dispatcher dispatcher;

    private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CONNECTING);
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final LinkedBlockingQueue<WorkItem> completions = new LinkedBlockingQueue<>();
    private volatile boolean stopRequested;
    private volatile boolean pauseWanted;
    private volatile Consumer<byte[], byte[]> consumer;
    private volatile TaskSnapshot snapshot;

    // confined to the fetch thread
    private final Map<TopicPartition, PartitionWindow> windows = new HashMap<>();
    private final CommitManager commits;
    private final RateMeter rate = new RateMeter();
    private RecordDecoder decoder;
    private int inFlight;
    private int peakInFlight;
    private boolean backPressurePaused;
    private boolean userPaused;
    private boolean firstAssignment = true;
    private long polls;
    private long recordsPolled;
    private long recordsFinished;
    private long recordsFailed;
    private long recordsDeadLettered;
    private long recordsStalled;
    private long rebalances;
    private long reconnects;
    private long backPressurePauses;
    private long lastPollTime;
    private volatile String lastError;
    private volatile long lastErrorTime;
    private long lastStallCheckMs;

    public KafkaFetchRecords(TaskSettings settings, String threadName,
                             Function<Properties, Consumer<byte[], byte[]>> consumerFactory,
                             Supplier<RecordDecoder> decoderFactory, ItemProcessor itemProcessor, Executor workers,
                             ExceptionHandler exceptionHandler, DeadLetterPublisher deadLetters) {
        this.settings = settings;
        this.threadName = threadName;
        this.consumerFactory = consumerFactory;
        this.decoderFactory = decoderFactory;
        this.exceptionHandler = exceptionHandler;
        this.deadLetters = deadLetters;
        this.commits = new CommitManager(settings.autoCommitIntervalMs(), settings.commitTimeoutMs());
        this.dispatcher = new Dispatcher(settings.ordering(), settings.maxConcurrency(), workers, itemProcessor,
                this::onRouteDone);
        this.snapshot = TaskSnapshot.initial(threadName, TaskState.CONNECTING.name(), settings.subscription(),
                settings.groupId(), settings.maxInFlightRecords(), settings.maxConcurrency());
    }

    // ---- called from any thread ----

    public TaskState state() {
        return state.get();
    }

    /** The latest snapshot published by the fetch thread. Never blocks. */
    public TaskSnapshot snapshot() {
        return snapshot;
    }

    public String threadName() {
        return threadName;
    }

    /** Asks the task to stop: it finishes in-flight records (bounded by shutdownTimeout), commits and closes. */
    public void requestStop() {
        stopRequested = true;
        stopSignal.countDown();
        wakeup();
    }

    /** Asks the task to pause: no record is started and every partition is paused; polling goes on. */
    public void requestPause() {
        pauseWanted = true;
        state.compareAndSet(TaskState.RUNNING, TaskState.PAUSE_REQUESTED);
        wakeup();
    }

    /** Asks a paused task to resume. */
    public void requestResume() {
        pauseWanted = false;
        state.updateAndGet(s -> s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED ? TaskState.RESUME_REQUESTED
                : s);
        wakeup();
    }

    public boolean awaitTermination(long timeoutMs) throws InterruptedException {
        return terminated.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void wakeup() {
        Consumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    // ---- worker threads ----

    private void onRouteDone(WorkItem item) {
        if (item.failure() != null && deadLetters != null) {
            deadLetters.publish(item, 1, () -> completions.offer(item));
        } else {
            completions.offer(item);
        }
    }

    // ---- the fetch thread ----

    @Override
    public void run() {
        try {
            while (!stopRequested) {
                if (!createConsumer() || !subscribe()) {
                    break;
                }
                if (!pollLoop()) {
                    break;
                }
                reconnects++;
                setState(TaskState.RECONNECTING);
                closeConsumer();
            }
        } catch (Throwable t) {
            recordError(t);
            LOG.error("Fetch task {} failed and terminates: {}", threadName, t.toString(), t);
        } finally {
            try {
                shutdown();
            } finally {
                setState(TaskState.TERMINATED);
                publishSnapshot(System.currentTimeMillis());
                terminated.countDown();
            }
        }
    }

    private boolean createConsumer() throws InterruptedException {
        setState(TaskState.CONNECTING);
        int attempts = 0;
        while (!stopRequested) {
            attempts++;
            try {
                decoder = decoderFactory.get();
                consumer = consumerFactory.apply(settings.properties());
                if (stopRequested) {
                    consumer.wakeup();
                }
                return true;
            } catch (RuntimeException e) {
                recordError(e);
                int max = settings.createConsumerBackoffMaxAttempts();
                if (max > 0 && attempts >= max) {
                    LOG.error("Fetch task {} gives up creating its KafkaConsumer after {} attempts: {}", threadName,
                            attempts, e.toString(), e);
                    return false;
                }
                LOG.warn("Fetch task {} could not create its KafkaConsumer (attempt {}), retrying in {} ms: {}",
                        threadName, attempts, settings.createConsumerBackoffIntervalMs(), e.toString());
                if (sleepUnlessStopped(settings.createConsumerBackoffIntervalMs())) {
                    return false;
                }
            }
        }
        return false;
    }

    private boolean subscribe() throws InterruptedException {
        setState(TaskState.SUBSCRIBING);
        int attempts = 0;
        while (!stopRequested) {
            attempts++;
            try {
                if (settings.pattern() != null) {
                    consumer.subscribe(settings.pattern(), new Rebalance());
                } else {
                    consumer.subscribe(settings.topics(), new Rebalance());
                }
                setState(TaskState.RUNNING);
                LOG.info("Fetch task {} subscribed to {} in group {}", threadName, settings.subscription(),
                        settings.groupId());
                return true;
            } catch (RuntimeException e) {
                recordError(e);
                int max = settings.subscribeConsumerBackoffMaxAttempts();
                if (max > 0 && attempts >= max) {
                    LOG.error("Fetch task {} gives up subscribing after {} attempts: {}", threadName, attempts,
                            e.toString(), e);
                    return false;
                }
                LOG.warn("Fetch task {} could not subscribe (attempt {}), retrying in {} ms: {}", threadName, attempts,
                        settings.subscribeConsumerBackoffIntervalMs(), e.toString());
                if (sleepUnlessStopped(settings.subscribeConsumerBackoffIntervalMs())) {
                    return false;
                }
            }
        }
        return false;
    }

    /** Polls until stopped (returns false) or until the consumer must be recreated (returns true). */
    private boolean pollLoop() throws InterruptedException {
        while (!stopRequested) {
            long now = System.currentTimeMillis();
            try {
                applyRequestedState();
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(pollTimeout(now)));
                now = System.currentTimeMillis();
                polls++;
                lastPollTime = now;
                if (!records.isEmpty()) {
                    dispatch(records);
                }
                drainCompletions();
                applyBackPressure();
                if (settings.autoCommitEnable() && commits.due(now)) {
                    commits.commit(consumer, windows.values(), now);
                }
                checkStalls(now);
            } catch (WakeupException e) {
                // a stop, pause or resume request: the loop looks at it
            } catch (AuthenticationException | AuthorizationException e) {
                recordError(e);
                exceptionHandler.handleException("Fetch task " + threadName + " is not allowed to consume "
                                                 + settings.subscription() + "; it stops retrying",
                        e);
                return false;
            } catch (RuntimeException e) {
                recordError(e);
                exceptionHandler.handleException("Fetch task " + threadName + " poll error on "
                                                 + settings.subscription() + "; polling goes on",
                        e);
                if (sleepUnlessStopped(Math.min(settings.pollTimeoutMs(), 1000))) {
                    return false;
                }
            }
            publishSnapshot(now);
        }
        return false;
    }

    private long pollTimeout(long nowMs) {
        long timeout = settings.pollTimeoutMs();
        if (inFlight > 0 || backPressurePaused) {
            timeout = Math.min(timeout, BUSY_POLL_MS);
        }
        if (settings.autoCommitEnable() && hasUncommitted()) {
            timeout = Math.min(timeout, commits.millisUntilDue(nowMs));
        }
        return timeout;
    }

    private boolean hasUncommitted() {
        for (PartitionWindow w : windows.values()) {
            if (w.hasUncommitted()) {
                return true;
            }
        }
        return false;
    }

    /** Brings the consumer in line with the latest pause or resume request. */
    private void applyRequestedState() {
        boolean wanted = pauseWanted;
        if (wanted && !userPaused) {
            userPaused = true;
            dispatcher.hold(true);
            consumer.pause(consumer.assignment());
            LOG.info("Fetch task {} paused", threadName);
        } else if (!wanted && userPaused) {
            userPaused = false;
            dispatcher.hold(false);
            if (!backPressurePaused) {
                consumer.resume(consumer.assignment());
            }
            LOG.info("Fetch task {} resumed", threadName);
        }
        TaskState target = userPaused ? TaskState.PAUSED : TaskState.RUNNING;
        // a request arriving meanwhile changed pauseWanted and woke the consumer: the next turn applies it
        state.updateAndGet(s -> s == TaskState.RUNNING || s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED
                                || s == TaskState.RESUME_REQUESTED ? target : s);
    }

    private void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition tp : records.partitions()) {
            PartitionWindow window = windows.get(tp);
            if (window == null) {
                window = new PartitionWindow(tp);
                windows.put(tp, window);
            }
            for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                WorkItem item = decoder.decode(window, record);
                if (++inFlight > peakInFlight) {
                    peakInFlight = inFlight;
                }
                recordsPolled++;
                dispatcher.submit(item);
            }
        }
    }

    private void drainCompletions() {
        WorkItem item;
        while ((item = completions.poll()) != null) {
            onCompleted(item);
        }
    }

    private void onCompleted(WorkItem item) {
        PartitionWindow window = item.window();
        if (window.isRetired() || !window.finish(item.seq())) {
            return;
        }
        inFlight--;
        recordsFinished++;
        rate.mark(System.currentTimeMillis(), 1);
        if (item.failure() != null) {
            recordsFailed++;
            if (deadLetters != null) {
                recordsDeadLettered++;
            }
        }
    }

    private void applyBackPressure() {
        int max = settings.maxInFlightRecords();
        int pollSize = settings.maxPollRecords();
        if (!backPressurePaused && inFlight + pollSize > max) {
            backPressurePaused = true;
            backPressurePauses++;
            consumer.pause(consumer.assignment());
            LOG.debug("Fetch task {} paused its partitions: {} records in flight", threadName, inFlight);
        } else if (backPressurePaused && inFlight <= Math.min(max / 2, max - pollSize)) {
            backPressurePaused = false;
            if (!userPaused) {
                consumer.resume(consumer.assignment());
            }
            LOG.debug("Fetch task {} resumed its partitions: {} records in flight", threadName, inFlight);
        }
    }

    private void checkStalls(long nowMs) {
        long stallMs = settings.stallTimeoutMs();
        if (stallMs <= 0 || nowMs - lastStallCheckMs < Math.min(1000, Math.max(10, stallMs / 4))) {
            return;
        }
        lastStallCheckMs = nowMs;
        long nowNanos = System.nanoTime();
        for (WorkItem item : dispatcher.running()) {
            long startedAt = item.startedAtNanos();
            if (startedAt == 0 || item.stallReported()
                || TimeUnit.NANOSECONDS.toMillis(nowNanos - startedAt) < stallMs) {
                continue;
            }
            item.markStallReported();
            recordsStalled++;
            Thread worker = item.worker();
            StallException stall = new StallException(item, stallMs, worker);
            recordError(stall);
            LOG.warn("{}{}", stall.getMessage(), deadLetters != null ? "; dead-lettering it" : "", stall);
            if (deadLetters != null && dispatcher.abandon(item)) {
                item.fail("stalled", stall);
                deadLetters.publish(item, 1, () -> completions.offer(item));
            }
        }
    }

    // ---- rebalance (called by the consumer inside poll, on the fetch thread) ----

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            rebalances++;
            List<PartitionWindow> revoked = windowsOf(partitions);
            Set<PartitionWindow> set = new HashSet<>(revoked);
            dispatcher.cancel(set::contains);
            long deadline = System.currentTimeMillis() + settings.revokeTimeoutMs();
            awaitRunning(set, deadline);
            if (settings.autoCommitEnable()) {
                commits.commit(consumer, revoked, System.currentTimeMillis());
            }
            retire(revoked);
            publishSnapshot(System.currentTimeMillis());
            LOG.info("Fetch task {} revoked {}", threadName, partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            rebalances++;
            List<PartitionWindow> lost = windowsOf(partitions);
            Set<PartitionWindow> set = new HashSet<>(lost);
            dispatcher.cancel(set::contains);
            retire(lost);
            LOG.warn("Fetch task {} lost {} without a chance to commit; unfinished records will be re-delivered",
                    threadName, partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            rebalances++;
            for (TopicPartition tp : partitions) {
                PartitionWindow old = windows.put(tp, new PartitionWindow(tp));
                if (old != null) {
                    retire(List.of(old));
                }
            }
            if (firstAssignment && settings.seekTo() != null) {
                if (settings.seekTo() == SeekPolicy.BEGINNING) {
                    consumer.seekToBeginning(partitions);
                } else {
                    consumer.seekToEnd(partitions);
                }
            }
            firstAssignment = false;
            if (userPaused || backPressurePaused) {
                consumer.pause(partitions);
            }
            publishSnapshot(System.currentTimeMillis());
            LOG.info("Fetch task {} assigned {}", threadName, partitions);
        }
    }

    private List<PartitionWindow> windowsOf(Collection<TopicPartition> partitions) {
        List<PartitionWindow> list = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            PartitionWindow w = windows.get(tp);
            if (w != null) {
                list.add(w);
            }
        }
        return list;
    }

    private void retire(List<PartitionWindow> list) {
        for (PartitionWindow w : list) {
            if (!w.isRetired()) {
                inFlight -= w.unfinished();
                w.retire();
            }
            windows.remove(w.partition(), w);
        }
    }

    /** Drains completions until no record of the given windows is running (and no dead letter pending). */
    private void awaitRunning(Set<PartitionWindow> set, long deadlineMs) {
        try {
            while (true) {
                drainCompletions();
                boolean busy = dispatcher.runningCount(set::contains) > 0
                               || deadLetters != null && deadLetters.pending() > 0;
                long left = deadlineMs - System.currentTimeMillis();
                if (!busy || left <= 0) {
                    if (busy) {
                        LOG.warn("Fetch task {}: records still running after the timeout; they are not committed and "
                                 + "will be re-delivered", threadName);
                    }
                    return;
                }
                WorkItem item = completions.poll(Math.min(left, 50), TimeUnit.MILLISECONDS);
                if (item != null) {
                    onCompleted(item);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- shutdown ----

    private void shutdown() {
        Consumer<byte[], byte[]> c = consumer;
        if (c == null) {
            return;
        }
        dispatcher.hold(true);
        Set<PartitionWindow> all = new HashSet<>(windows.values());
        dispatcher.cancel(w -> true);
        awaitRunning(all, System.currentTimeMillis() + settings.shutdownTimeoutMs());
        if (settings.autoCommitEnable()) {
            try {
                commits.commit(c, windows.values(), System.currentTimeMillis());
            } catch (WakeupException e) {
                commits.commit(c, windows.values(), System.currentTimeMillis());
            }
        }
        closeConsumer();
    }

    private void closeConsumer() {
        Consumer<byte[], byte[]> c = consumer;
        if (c == null) {
            return;
        }
        retire(new ArrayList<>(windows.values()));
        try {
            c.close(CloseOptions.timeout(Duration.ofMillis(Math.min(settings.commitTimeoutMs(), 5000))));
        } catch (RuntimeException e) {
            LOG.debug("Closing the consumer of {} failed: {}", threadName, e.toString());
        }
        consumer = null;
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }

    // ---- helpers ----

    private boolean sleepUnlessStopped(long ms) throws InterruptedException {
        return stopSignal.await(ms, TimeUnit.MILLISECONDS);
    }

    private void setState(TaskState s) {
        state.set(s);
    }

    private void recordError(Throwable t) {
        lastError = t.toString();
        lastErrorTime = System.currentTimeMillis();
    }

    private void publishSnapshot(long nowMs) {
        Consumer<byte[], byte[]> c = consumer;
        String memberId = null;
        String instanceId = null;
        int generation = -1;
        List<PartitionSnapshot> parts = new ArrayList<>(windows.size());
        long oldestNanos = 0;
        if (c != null) {
            try {
                ConsumerGroupMetadata meta = c.groupMetadata();
                memberId = meta.memberId();
                generation = meta.generationId();
                instanceId = meta.groupInstanceId().orElse(null);
            } catch (RuntimeException e) {
                // not in a group yet
            }
            for (PartitionWindow w : windows.values()) {
                long position = w.lastPolledOffset() < 0 ? -1 : w.lastPolledOffset() + 1;
                long lag = -1;
                long end = -1;
                try {
                    OptionalLong l = c.currentLag(w.partition());
                    if (l.isPresent()) {
                        lag = l.getAsLong();
                        end = position < 0 ? -1 : position + lag;
                    }
                } catch (RuntimeException e) {
                    // unknown
                }
                String paused = userPaused ? "user" : backPressurePaused ? "back-pressure" : null;
                parts.add(new PartitionSnapshot(w.partition().topic(), w.partition().partition(), position,
                        w.lastCommitted(), w.committable(), end, lag, w.unfinished(), paused));
            }
        }
        for (WorkItem item : dispatcher.running()) {
            if (oldestNanos == 0 || item.polledAtNanos() < oldestNanos) {
                oldestNanos = item.polledAtNanos();
            }
        }
        long oldestAge = oldestNanos == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - oldestNanos);
        String clientId = settings.properties().getProperty("client.id");
        snapshot = new TaskSnapshot(threadName, state.get().name(), settings.subscription(), settings.groupId(),
                instanceId, memberId, generation, clientId, List.copyOf(parts), polls, recordsPolled, recordsFinished,
                recordsFailed, recordsDeadLettered, recordsStalled, commits.commits(), commits.failures(), rebalances,
                reconnects, backPressurePauses, inFlight, peakInFlight, dispatcher.runningCount(), dispatcher.queuedCount(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), lastPollTime, commits.lastCommitTimeMs(),
                lastError, lastErrorTime, rate.perSecond(nowMs), oldestAge, nowMs);
    }
}
