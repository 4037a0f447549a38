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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.commit.ManualCommitGateway;
import dev.kafkafetch.error.DeadLetterPublisher;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.metrics.PartitionSnapshot;
import dev.kafkafetch.metrics.RateMeter;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.processor.Dispatcher;
import dev.kafkafetch.processor.ItemProcessor;
import dev.kafkafetch.processor.ProcessingResult;
import dev.kafkafetch.processor.RecordDecoder;
import dev.kafkafetch.processor.WorkItem;
import dev.kafkafetch.window.PartitionWindow;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
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
public final class KafkaFetchRecords implements Runnable, ManualCommitGateway {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchRecords.class);
    /** Poll timeout while records are in flight, so completions are drained and commits made promptly. */
    private static final long BUSY_POLL_MS = 20;
    /** Poll timeout while paused by a Pausable EIP listener, whose until-check is asked at every poll. */
    private static final long LISTENER_CHECK_MS = 100;

    private final TaskSettings settings;
    private final String threadName;
    private final Function<Properties, Consumer<byte[], byte[]>> consumerFactory;
    private final Supplier<RecordDecoder> decoderFactory;
    private final ExceptionHandler exceptionHandler;
    private final PollExceptionStrategy pollErrors;
    private final DeadLetterPublisher deadLetters;
    private final Dispatcher dispatcher;

    private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CONNECTING);
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Finished records, from workers (and dead-letter acks) to the fetch thread; lock-free. */
    private final ConcurrentLinkedQueue<WorkItem> completions = new ConcurrentLinkedQueue<>();
    /** Records completed so far (workers count up), and the count at which a back-pressure pause can end. */
    private final java.util.concurrent.atomic.AtomicLong completedCount = new java.util.concurrent.atomic.AtomicLong();
    private volatile long wakeAtCompleted = Long.MAX_VALUE;
    /** Records drained from completions so far (fetch thread). */
    private long drainedCount;
    private final ConcurrentLinkedQueue<ManualCommitRequest> manualCommits = new ConcurrentLinkedQueue<>();
    /** The fetch thread is inside (or about to enter) poll(), where a wakeup() ends the wait. */
    private volatile boolean inPoll;
    private volatile boolean stopRequested;
    private volatile boolean pauseWanted;
    /** Pausable EIP: the listener, and whether it asked for a pause. */
    private volatile ConsumerListener<Object, ProcessingResult> listener;
    private volatile boolean listenerPaused;
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
    /** breakOnFirstError: the offset being re-delivered per partition, and its delivery count. */
    private final Map<TopicPartition, long[]> redeliveries = new HashMap<>();
    /** Partitions sought back during this loop: records of the current poll for them are stale. */
    private final Set<TopicPartition> soughtBack = new HashSet<>();
    /** batching: records collected for the next batch, and when its first record was polled. */
    private final List<WorkItem> pendingBatch = new ArrayList<>();
    /** Records of the current poll, handed to the dispatcher in one go. */
    private final List<WorkItem> toSubmit = new ArrayList<>();
    private long batchStartMs;
    private boolean closing;
    private Set<PartitionWindow> revoking = Set.of();
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
    private String clientId;
    // broker reachability, read from the client's own metrics (see readClientMetrics)
    private Metric connectionCountMetric;
    private Metric responseTotalMetric;
    private long nextMetricLookupMs;
    private double lastResponseTotal;
    private int connectionCount = -1;
    private long lastBrokerResponseTime;
    private long consumerCreatedTime;

    public KafkaFetchRecords(TaskSettings settings, String threadName,
                             Function<Properties, Consumer<byte[], byte[]>> consumerFactory,
                             Supplier<RecordDecoder> decoderFactory,
                             Function<ManualCommitGateway, ItemProcessor> itemProcessor, Executor workers,
                             ExceptionHandler exceptionHandler, PollExceptionStrategy pollErrors,
                             DeadLetterPublisher deadLetters) {
        this.settings = settings;
        this.threadName = threadName;
        this.consumerFactory = consumerFactory;
        this.decoderFactory = decoderFactory;
        this.exceptionHandler = exceptionHandler;
        this.pollErrors = pollErrors;
        this.deadLetters = deadLetters;
        this.commits = new CommitManager(settings.autoCommitIntervalMs(), settings.commitTimeoutMs());
        this.dispatcher = new Dispatcher(settings.ordering(), settings.maxConcurrency(), workers,
                itemProcessor.apply(this), this::onRouteDone);
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

    /** Camel's Pausable EIP: the listener consulted after each record and, while paused by it, at each poll. */
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        this.listener = listener;
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
        ConsumerListener<Object, ProcessingResult> l = listener;
        if (l != null && !l.afterProcess(ProcessingResult.of(item))) {
            listenerPaused = true;
            wakeup();
            if (item.failure() != null) {
                // deliver it again after the resume: nothing behind it starts, its partition is sought back to it
                item.requestBreak();
                dispatcher.block(windowsOfItem(item));
                completed(item);
                return;
            }
        }
        if (item.failure() == null) {
            completed(item);
            return;
        }
        int max = settings.breakOnFirstErrorMaxAttempts();
        if (settings.breakOnFirstError() && (max == 0 || item.attempt() < max)) {
            // nothing behind the failed record may start before the fetch thread seeks back to it
            item.requestBreak();
            dispatcher.block(windowsOfItem(item));
            completed(item);
            return;
        }
        if (deadLetters != null) {
            List<WorkItem> records = item.isBatch() ? item.batch() : List.of(item);
            AtomicInteger left = new AtomicInteger(records.size());
            for (WorkItem r : records) {
                if (r != item) {
                    r.fail(item.failureReason(), item.failure());
                }
                deadLetters.publish(r, item.attempt(), () -> {
                    if (left.decrementAndGet() == 0) {
                        completed(item);
                    }
                });
            }
            return;
        }
        if (settings.breakOnFirstError()) {
            exceptionHandler.handleException("Record " + item + " failed " + item.attempt()
                                             + " times (breakOnFirstErrorMaxAttempts); it is skipped",
                    item.failure());
        }
        completed(item);
    }

    private static Set<PartitionWindow> windowsOfItem(WorkItem item) {
        if (!item.isBatch()) {
            return Set.of(item.window());
        }
        Set<PartitionWindow> set = new HashSet<>();
        for (WorkItem r : item.batch()) {
            set.add(r.window());
        }
        return set;
    }

    // ---- manual commits (any thread asks, the fetch thread commits) ----

    private record ManualCommitRequest(WorkItem item, CompletableFuture<Long> result) {
    }

    @Override
    public CompletableFuture<Long> requestCommit(WorkItem item) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        if (stopRequested && consumer == null) {
            result.completeExceptionally(new IllegalStateException("the fetch task has stopped"));
            return result;
        }
        manualCommits.offer(new ManualCommitRequest(item, result));
        if (inPoll) {
            wakeup();
        }
        return result;
    }

    @Override
    public long commitTimeoutMs() {
        return settings.commitTimeoutMs();
    }

    /**
     * Commits what was asked by hand. A manual commit marks its record finished and asks for its offset + 1; what is
     * committed is that, or less while an earlier record of the partition is unfinished; the rest follows as soon as
     * those earlier records finish ({@link #commitPendingManual}).
     */
    private void drainManualCommits() {
        if (manualCommits.isEmpty()) {
            return;
        }
        List<ManualCommitRequest> requests = new ArrayList<>();
        ManualCommitRequest request;
        while ((request = manualCommits.poll()) != null) {
            WorkItem item = request.item();
            PartitionWindow w = item.window();
            if (w.isRetired() || windows.get(w.partition()) != w) {
                request.result().completeExceptionally(new IllegalStateException(
                        item + " is no longer assigned to this consumer (rebalance); not committed"));
                continue;
            }
            finish(item, false); // the route says it is done with it
            w.requestManualCommit(item.offset() + 1);
            requests.add(request);
        }
        if (requests.isEmpty()) {
            return;
        }
        try {
            commitPendingManual();
            for (ManualCommitRequest r : requests) {
                r.result().complete(r.item().window().lastCommitted());
            }
        } catch (RuntimeException e) {
            recordError(e);
            for (ManualCommitRequest r : requests) {
                r.result().completeExceptionally(e);
            }
        }
    }

    /** Commits, for every partition, what manual commits asked for and is no longer held back by an earlier record. */
    private void commitPendingManual() {
        Map<PartitionWindow, Long> targets = null;
        for (PartitionWindow w : windows.values()) {
            long target = w.manualCommittable();
            if (target >= 0) {
                if (targets == null) {
                    targets = new HashMap<>();
                }
                targets.put(w, target);
            }
        }
        if (targets != null) {
            commits.commitExactly(consumer, targets);
        }
    }

    /**
     * Hands a finished record to the fetch thread. When the task is paused for back-pressure, the completion that
     * brings the window down to its low-water mark wakes the fetch thread, so it resumes at once instead of at the end
     * of its poll.
     */
    private void completed(WorkItem item) {
        completions.offer(item);
        int records = item.isBatch() ? item.batch().size() : 1;
        long after = completedCount.addAndGet(records);
        long wakeAt = wakeAtCompleted;
        if (after >= wakeAt && after - records < wakeAt && inPoll) {
            wakeup();
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
                finishInFlightAndCommit();
                closeConsumer();
                if (sleepUnlessStopped(settings.createConsumerBackoffIntervalMs())) {
                    break;
                }
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
                clientId = clientIdOf(consumer);
                consumerCreatedTime = System.currentTimeMillis();
                connectionCountMetric = null;
                responseTotalMetric = null;
                nextMetricLookupMs = 0;
                lastResponseTotal = 0;
                connectionCount = -1;
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
                drainManualCommits();
                long timeout = pollTimeout(now);
                inPoll = true;
                if (!manualCommits.isEmpty() || canResumeNow()) {
                    // work that arrived before inPoll was set did not wake us up: don't wait for it
                    timeout = 0;
                }
                polls++;
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(timeout));
                inPoll = false;
                now = System.currentTimeMillis();
                lastPollTime = now;
                drainCompletions();
                if (!records.isEmpty()) {
                    dispatch(records, now);
                }
                soughtBack.clear();
                if (settings.batching()) {
                    dispatchBatchIfDue(now, !records.isEmpty());
                }
                if (settings.allowManualCommit()) {
                    try {
                        commitPendingManual();
                    } catch (RuntimeException e) {
                        recordError(e);
                        LOG.warn("Fetch task {}: manual commit failed (will retry): {}", threadName, e.toString());
                    }
                }
                applyBackPressure();
                if (settings.autoCommitEnable() && commits.due(now)) {
                    try {
                        commits.commit(consumer, windows.values(), now);
                    } catch (WakeupException e) {
                        // a late wakeup meant for the poll: the flag is consumed, commit now
                        commits.commit(consumer, windows.values(), now);
                    }
                }
                checkStalls(now);
            } catch (WakeupException e) {
                // a stop, pause, resume or manual commit request, or room in the window: the loop looks at it
                inPoll = false;
            } catch (RuntimeException e) {
                inPoll = false;
                recordError(e);
                PollOnError action = pollErrors.decide(e);
                String what = "Fetch task " + threadName + ": poll error on " + settings.subscription();
                switch (action) {
                    case STOP:
                        LOG.error("{}; the task stops (pollOnError=STOP or a security error): {}", what, e.toString(), e);
                        exceptionHandler.handleException(what + "; the task stops", e);
                        return false;
                    case RECONNECT:
                        LOG.warn("{}; reconnecting: {}", what, e.toString());
                        return true;
                    case ERROR_HANDLER:
                        exceptionHandler.handleException(what + "; polling goes on", e);
                        break;
                    default:
                        LOG.warn("{}; polling goes on ({}): {}", what, action, e.toString());
                        break;
                }
                if (sleepUnlessStopped(Math.min(settings.pollTimeoutMs(), 500))) {
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
        if (canResumeNow()) {
            timeout = 0;
        }
        if (listenerPaused) {
            timeout = Math.min(timeout, LISTENER_CHECK_MS); // ask the Pausable EIP's until-check often
        }
        if (settings.autoCommitEnable() && hasUncommitted()) {
            timeout = Math.min(timeout, commits.millisUntilDue(nowMs));
        }
        if (!pendingBatch.isEmpty() && settings.batchingIntervalMs() > 0) {
            timeout = Math.min(timeout, Math.max(0, batchStartMs + settings.batchingIntervalMs() - nowMs));
        }
        return Math.max(timeout, 0);
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
        ConsumerListener<Object, ProcessingResult> l = listener;
        if (listenerPaused && userPaused && l != null && l.afterConsume(this)) {
            listenerPaused = false;
        }
        boolean wanted = pauseWanted || listenerPaused;
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

    private void dispatch(ConsumerRecords<byte[], byte[]> records, long nowMs) {
        int partitionsLeft = records.partitions().size();
        for (TopicPartition tp : records.partitions()) {
            partitionsLeft--;
            if (soughtBack.contains(tp)) {
                continue; // polled before the seek back: the next poll returns them again
            }
            PartitionWindow window = windows.get(tp);
            if (window == null) {
                window = new PartitionWindow(tp);
                windows.put(tp, window);
            }
            long[] redelivery = redeliveries.get(tp);
            List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
            for (int i = 0; i < list.size(); i++) {
                ConsumerRecord<byte[], byte[]> record = list.get(i);
                WorkItem item = decoder.decode(window, record);
                boolean lastOfPartition = i == list.size() - 1;
                item.positionInPoll(lastOfPartition, lastOfPartition && partitionsLeft == 0);
                if (redelivery != null && redelivery[0] == record.offset()) {
                    item.attempt((int) redelivery[1]);
                }
                if (++inFlight > peakInFlight) {
                    peakInFlight = inFlight;
                }
                recordsPolled++;
                if (settings.batching()) {
                    if (pendingBatch.isEmpty()) {
                        batchStartMs = nowMs;
                    }
                    pendingBatch.add(item);
                    if (pendingBatch.size() >= settings.maxPollRecords()) {
                        dispatchBatch();
                    }
                } else {
                    toSubmit.add(item);
                }
            }
        }
        if (!toSubmit.isEmpty()) {
            dispatcher.submitAll(toSubmit);
            toSubmit.clear();
        }
    }

    /** One batch per poll, or per batchingIntervalMs when set (counted from the batch's first record). */
    private void dispatchBatchIfDue(long nowMs, boolean polledRecords) {
        if (pendingBatch.isEmpty()) {
            return;
        }
        if (settings.batchingIntervalMs() == 0 ? polledRecords
                : nowMs - batchStartMs >= settings.batchingIntervalMs()) {
            dispatchBatch();
        }
    }

    private void dispatchBatch() {
        if (!pendingBatch.isEmpty()) {
            dispatcher.submit(new WorkItem(pendingBatch));
            pendingBatch.clear();
        }
    }

    private void drainCompletions() {
        WorkItem item;
        long before = recordsFinished;
        while ((item = completions.poll()) != null) {
            drainedCount += item.isBatch() ? item.batch().size() : 1;
            onCompleted(item);
        }
        if (recordsFinished != before) {
            rate.mark(System.currentTimeMillis(), recordsFinished - before);
        }
    }

    private void onCompleted(WorkItem item) {
        if (item.breakRequested()) {
            seekBackTo(item);
            return;
        }
        if (item.isBatch()) {
            for (WorkItem r : item.batch()) {
                finish(r, item.failure() != null);
            }
        } else {
            finish(item, item.failure() != null);
        }
    }

    private void finish(WorkItem item, boolean failed) {
        PartitionWindow window = item.window();
        if (window.isRetired() || !window.finish(item.seq())) {
            return;
        }
        inFlight--;
        recordsFinished++;
        if (item.attempt() > 1) {
            redeliveries.remove(window.partition());
        }
        if (failed) {
            lastError = "record " + item + " failed: " + item.failure();
            lastErrorTime = System.currentTimeMillis();
            recordsFailed++;
            if (deadLetters != null) {
                recordsDeadLettered++;
            }
        }
    }

    /**
     * breakOnFirstError: commits each affected partition up to the failed record, drops what was polled after it and
     * seeks back to it, so the next poll delivers it again. Other partitions and the group are not touched.
     */
    private void seekBackTo(WorkItem failed) {
        Map<PartitionWindow, Long> firstOffsets = new HashMap<>();
        for (WorkItem r : failed.isBatch() ? failed.batch() : List.of(failed)) {
            firstOffsets.merge(r.window(), r.offset(), Math::min);
        }
        recordsFailed++;
        for (Map.Entry<PartitionWindow, Long> e : firstOffsets.entrySet()) {
            PartitionWindow w = e.getKey();
            long offset = e.getValue();
            if (closing || w.isRetired() || revoking.contains(w)) {
                continue; // stays unfinished: never committed past, re-delivered to whoever owns it next
            }
            TopicPartition tp = w.partition();
            dispatcher.cancel(x -> x == w);
            pendingBatch.removeIf(r -> r.window() == w);
            if (settings.autoCommitEnable()) {
                commits.commit(consumer, List.of(w), System.currentTimeMillis());
            }
            int next = failed.attempt() + 1;
            redeliveries.put(tp, new long[] { offset, next });
            LOG.warn("Fetch task {}: {} failed (delivery attempt {}{}); breakOnFirstError seeks {} back to offset {}",
                    threadName, failed, failed.attempt(), settings.breakOnFirstErrorMaxAttempts() > 0
                            ? " of " + settings.breakOnFirstErrorMaxAttempts() : "",
                    tp, offset);
            consumer.seek(tp, offset);
            retire(List.of(w));
            windows.put(tp, new PartitionWindow(tp));
            soughtBack.add(tp);
        }
    }

    private void applyBackPressure() {
        int max = settings.maxInFlightRecords();
        int pollSize = settings.maxPollRecords();
        int lowWater = Math.min(max / 2, max - pollSize);
        if (!backPressurePaused && inFlight + pollSize > max) {
            backPressurePaused = true;
            backPressurePauses++;
            consumer.pause(consumer.assignment());
            LOG.debug("Fetch task {} paused its partitions: {} records in flight", threadName, inFlight);
        } else if (backPressurePaused && inFlight <= lowWater) {
            backPressurePaused = false;
            if (!userPaused) {
                consumer.resume(consumer.assignment());
            }
            LOG.debug("Fetch task {} resumed its partitions: {} records in flight", threadName, inFlight);
        }
        // every drained completion is one in-flight record less: wake up when enough more have finished
        wakeAtCompleted = backPressurePaused ? drainedCount + (inFlight - lowWater) : Long.MAX_VALUE;
    }

    /** True when enough records finished since the last drain to end a back-pressure pause: don't wait in poll. */
    private boolean canResumeNow() {
        return backPressurePaused && completedCount.get() >= wakeAtCompleted;
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
                deadLetters.publish(item, 1, () -> completed(item));
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
            pendingBatch.removeIf(r -> set.contains(r.window()));
            long deadline = System.currentTimeMillis() + settings.revokeTimeoutMs();
            revoking = set;
            try {
                awaitRunning(set, deadline);
            } finally {
                revoking = Set.of();
            }
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
            pendingBatch.removeIf(r -> set.contains(r.window()));
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
            boolean seeking = firstAssignment && settings.seekTo() != null;
            Map<TopicPartition, OffsetAndMetadata> committed = seeking ? Map.of() : committedOffsets(partitions);
            for (TopicPartition tp : partitions) {
                PartitionWindow window = new PartitionWindow(tp);
                OffsetAndMetadata c = committed.get(tp);
                if (c != null) {
                    window.committed(c.offset());
                }
                PartitionWindow old = windows.put(tp, window);
                if (old != null) {
                    retire(List.of(old));
                }
            }
            if (seeking) {
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

    /** What the group committed for newly assigned partitions, so metrics show it before this task commits. */
    private Map<TopicPartition, OffsetAndMetadata> committedOffsets(Collection<TopicPartition> partitions) {
        try {
            Map<TopicPartition, OffsetAndMetadata> map = consumer.committed(new HashSet<>(partitions),
                    Duration.ofMillis(settings.commitTimeoutMs()));
            Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
            map.forEach((tp, o) -> {
                if (o != null) {
                    result.put(tp, o);
                }
            });
            return result;
        } catch (RuntimeException e) {
            LOG.debug("Fetch task {}: committed offsets unknown: {}", threadName, e.toString());
            return Map.of();
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
            dispatcher.unblock(w);
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
                // busy first, then drain: a record leaves "running" (and a dead letter "pending") only after its
                // completion was queued, so when neither is busy, this drain sees every completion
                boolean busy = dispatcher.runningCount(set::contains) > 0
                               || deadLetters != null && deadLetters.pending() > 0;
                drainCompletions();
                drainManualCommits();
                long left = deadlineMs - System.currentTimeMillis();
                if (!busy || left <= 0) {
                    if (busy) {
                        LOG.warn("Fetch task {}: records still running after the timeout; they are not committed and "
                                 + "will be re-delivered", threadName);
                    }
                    return;
                }
                Thread.sleep(Math.min(left, 2));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- shutdown ----

    private void shutdown() {
        if (consumer == null) {
            return;
        }
        closing = true;
        finishInFlightAndCommit();
        closeConsumer();
    }

    /** Starts nothing new, waits for running records (bounded by shutdownTimeout) and commits what finished. */
    private void finishInFlightAndCommit() {
        Consumer<byte[], byte[]> c = consumer;
        dispatcher.hold(true);
        Set<PartitionWindow> all = new HashSet<>(windows.values());
        dispatcher.cancel(w -> true);
        pendingBatch.clear();
        awaitRunning(all, System.currentTimeMillis() + settings.shutdownTimeoutMs());
        if (settings.autoCommitEnable()) {
            try {
                commits.commit(c, windows.values(), System.currentTimeMillis());
            } catch (WakeupException e) {
                commits.commit(c, windows.values(), System.currentTimeMillis());
            }
        }
        dispatcher.hold(userPaused);
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
        // state that belonged to the closed consumer: a new one starts from the committed offsets, unpaused
        redeliveries.clear();
        soughtBack.clear();
        backPressurePaused = false;
        wakeAtCompleted = Long.MAX_VALUE;
        ManualCommitRequest pending;
        while ((pending = manualCommits.poll()) != null) {
            pending.result().completeExceptionally(new IllegalStateException("the consumer closed; not committed"));
        }
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }

    // ---- helpers ----

    /** The client id in use (Kafka generates one when none is configured), from the client's own metric tags. */
    private String clientIdOf(Consumer<byte[], byte[]> c) {
        String configured = settings.properties().getProperty("client.id");
        if (configured != null) {
            return configured;
        }
        try {
            for (org.apache.kafka.common.MetricName name : c.metrics().keySet()) {
                String id = name.tags().get("client-id");
                if (id != null) {
                    return id;
                }
            }
        } catch (RuntimeException e) {
            // unknown
        }
        return null;
    }

    private boolean sleepUnlessStopped(long ms) throws InterruptedException {
        return stopSignal.await(ms, TimeUnit.MILLISECONDS);
    }

    private void setState(TaskState s) {
        state.set(s);
        publishSnapshot(System.currentTimeMillis());
    }

    /**
     * Reads, without blocking, two of the client's own metrics (group {@code consumer-metrics}): {@code connection-count}
     * (connections open or being opened) and {@code response-total} (responses received from any broker). A growing
     * response count proves the brokers answer; health checks read both from the snapshot.
     */
    private void readClientMetrics(Consumer<byte[], byte[]> c, long nowMs) {
        if ((connectionCountMetric == null || responseTotalMetric == null) && nowMs >= nextMetricLookupMs) {
            nextMetricLookupMs = nowMs + 1000;
            try {
                for (Map.Entry<MetricName, ? extends Metric> e : c.metrics().entrySet()) {
                    MetricName name = e.getKey();
                    if ("consumer-metrics".equals(name.group())) {
                        if ("connection-count".equals(name.name())) {
                            connectionCountMetric = e.getValue();
                        } else if ("response-total".equals(name.name())) {
                            responseTotalMetric = e.getValue();
                        }
                    }
                }
            } catch (RuntimeException e) {
                // metrics unavailable (e.g. a mock consumer): reachability stays unknown
            }
        }
        double connections = metricValue(connectionCountMetric);
        connectionCount = Double.isNaN(connections) ? -1 : (int) connections;
        double responses = metricValue(responseTotalMetric);
        if (!Double.isNaN(responses) && responses > lastResponseTotal) {
            lastResponseTotal = responses;
            lastBrokerResponseTime = nowMs;
        }
    }

    private static double metricValue(Metric metric) {
        if (metric == null) {
            return Double.NaN;
        }
        try {
            Object v = metric.metricValue();
            return v instanceof Number ? ((Number) v).doubleValue() : Double.NaN;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
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
            readClientMetrics(c, nowMs);
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
        Dispatcher.Load load = dispatcher.load();
        oldestNanos = load.oldestRunningPolledAtNanos();
        long oldestAge = oldestNanos == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - oldestNanos);
        snapshot = new TaskSnapshot(threadName, state.get().name(), settings.subscription(), settings.groupId(),
                instanceId, memberId, generation, clientId, List.copyOf(parts), polls, recordsPolled, recordsFinished,
                recordsFailed, recordsDeadLettered, recordsStalled, commits.commits(), commits.failures(), rebalances,
                reconnects, backPressurePauses, inFlight, peakInFlight, load.running(), load.queued(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), lastPollTime, commits.lastCommitTimeMs(),
                lastError, lastErrorTime, rate.perSecond(nowMs), oldestAge, nowMs, c != null ? connectionCount : -1,
                lastBrokerResponseTime, c != null ? consumerCreatedTime : 0);
    }
}
