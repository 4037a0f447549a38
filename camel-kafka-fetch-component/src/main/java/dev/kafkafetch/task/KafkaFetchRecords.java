package dev.kafkafetch.task;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.commit.OffsetStore;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.FailureRouter;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollErrorHandler;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.error.StallDetector;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.processor.BatchCollector;
import dev.kafkafetch.serde.RecordDecoder;
import dev.kafkafetch.tx.TxSnapshot;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetch task: one thread and one KafkaConsumer, which nothing else touches (other threads only signal it through
 * {@link TaskConsumer#wakeup()}, queues and flags). It creates and subscribes the consumer (with retry and backoff),
 * runs the poll loop, and creates the consumer again when a poll error asks for it.
 * <p>
 * Guarantees: every polled record enters its partition's window before anything else happens in the loop, and the
 * committed offset never passes the first unfinished record (docs/design.md §4.2); the records held per task stay
 * within {@code maxInFlightRecords} (§4.3); the loop never waits on the route or on a dead letter between two polls,
 * only in the bounded waits of revoke and stop (§4.4, §4.5). The parts it calls each keep one of these: the
 * {@link PartitionStates} (per-partition state, rebalances, seek backs), the {@link Dispatcher} (order, concurrency),
 * the {@link CompletionQueue} (completions, back-pressure), the {@link FailureRouter}, the {@link CommitManager} and
 * the {@link ManualCommitQueue} (both through the {@link Settlement}, the loop's way back from the route), the
 * {@link StallDetector}, the {@link RecordIntake} and the {@link TaskMetrics}.
 * With {@code transacted}, every commit goes through {@link TransactedCommits} instead of the consumer: one transaction
 * with the outputs of the records it counts finished, and an abort reads its partitions again before any other commit.
 */
public final class KafkaFetchRecords implements FetchTask {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchRecords.class);
    /** Poll timeout while records are in flight, so completions are drained and commits made promptly. */
    private static final long BUSY_POLL_MS = 20;
    /** Poll timeout while paused by a Pausable EIP listener, whose until-check is asked at every poll. */
    private static final long LISTENER_CHECK_MS = 100;

    private final TaskSettings settings;
    private final String threadName;
    private final Function<Properties, Consumer<byte[], byte[]>> consumerFactory;
    private final Supplier<RecordDecoder> decoderFactory;

    private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CONNECTING);
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile TaskConsumer consumer;
    private volatile TaskSnapshot snapshot;
    private volatile TxSnapshot txSnapshot;

    private final TaskMetrics metrics;
    private final CompletionQueue completions;
    private final FailureRouter failures;
    private final Dispatcher dispatcher;
    private final CommitManager commits;
    private final ManualCommitQueue manualCommits;
    private final StallDetector stalls;
    private final RecordIntake intake;
    private final PartitionStates partitions;
    private final PauseControl pauses;
    private final PollErrorHandler pollErrors;
    private final OperatorControls operator;
    private final PartitionSnapshots partitionSnapshots;
    private final Settlement settlement;
    // confined to the fetch thread
    private RecordDecoder decoder;
    private long nextRetryDueMs = Long.MAX_VALUE;
    /** Null unless transacted. */
    private TransactedCommits transactions;

    /**
     * @param processorFactory runs records through the route, given the manual-commit queue (null unless
     *                         allowManualCommit)
     * @param deadLetters      null without a dead-letter topic
     */
    public KafkaFetchRecords(TaskSettings settings, String threadName,
                             Function<Properties, Consumer<byte[], byte[]>> consumerFactory,
                             Supplier<RecordDecoder> decoderFactory,
                             Function<ManualCommitQueue, ItemProcessor> processorFactory, Executor workers,
                             ExceptionHandler exceptionHandler, PollExceptionStrategy pollExceptionStrategy,
                             LetterPublisher letters) {
        this.settings = settings;
        this.threadName = threadName;
        this.consumerFactory = consumerFactory;
        this.decoderFactory = decoderFactory;
        this.metrics = new TaskMetrics(threadName, settings.subscription(), settings.groupId(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), settings.masker());
        this.completions = new CompletionQueue(settings.maxInFlightRecords(), settings.maxPollRecords(), this::wakeup);
        this.failures = new FailureRouter(settings.failureRules(), letters, exceptionHandler, metrics,
                pollExceptionStrategy, new FailureRouter.TaskSignals() {
                    @Override
                    public void completed(WorkItem item) {
                        completions.offer(item);
                    }

                    @Override
                    public void pauseForListener() {
                        pauses.listenerPause();
                        wakeup();
                    }

                    @Override
                    public void stop() {
                        requestStop();
                    }
                });
        this.manualCommits = settings.allowManualCommit()
                ? new ManualCommitQueue(settings.commitTimeoutMs(), this::wakeup) : null;
        boolean batchesInOrder = settings.ordering() != Ordering.UNORDERED || settings.breakOnFirstError();
        this.dispatcher = new Dispatcher(settings.ordering(), batchesInOrder, settings.maxConcurrency(),
                settings.maxConcurrency(), workers, processorFactory.apply(manualCommits), failures);
        this.commits = new CommitManager(settings.autoCommitIntervalMs(), settings.finishedCommitIntervalMs(),
                settings.commitTimeoutMs(),
                settings.offsetMap() && settings.autoCommitEnable());
        BatchCollector batches = settings.batching()
                ? new BatchCollector(settings.batchingIntervalMs(), settings.maxPollRecords()) : null;
        this.stalls = new StallDetector(settings.stallTimeoutMs(), dispatcher,
                settings.deadLetterTopic() != null ? failures::deadLetterStalled : null, metrics);
        this.partitions = new PartitionStates(threadName, settings, dispatcher, batches, commits, metrics,
                this::settle, () -> publishSnapshot(System.currentTimeMillis()));
        this.settlement = new Settlement(completions, partitions, dispatcher, commits, manualCommits, metrics,
                settings.autoCommitEnable(), () -> consumer, this::requestStop);
        this.intake = new RecordIntake(threadName, partitions, dispatcher, batches, metrics, settings.retries());
        this.pauses = new PauseControl(threadName, dispatcher, partitions, completions);
        this.operator = new OperatorControls(threadName, partitions, dispatcher, failures, metrics,
                new PartitionSeeks(threadName, settings, partitions, metrics), () -> consumer, this::wakeup);
        this.partitionSnapshots = new PartitionSnapshots(dispatcher, settings.ordering(), settings.batching());
        this.pollErrors = new PollErrorHandler(threadName, settings.subscription(), pollExceptionStrategy,
                exceptionHandler, metrics);
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

    /** transacted: the task's transactions as last published by the fetch thread; null otherwise. */
    public TxSnapshot transactions() {
        return txSnapshot;
    }

    public String threadName() {
        return threadName;
    }

    /**
     * The reachability of the task's current consumer (null while it has none), for health checks that must not wait
     * for the next snapshot; {@link ClientReachability#refresh} reads the client's metrics, never the consumer.
     */
    public ClientReachability reachability() {
        TaskConsumer c = consumer;
        return c != null ? c.reachability() : null;
    }

    /** Asks the task to stop: it finishes in-flight records (bounded by shutdownTimeout), commits and closes. */
    public void requestStop() {
        stop.request();
        wakeup();
    }

    /** Asks the task to pause: no record is started and every partition is paused; polling goes on. */
    @Override
    public void requestPause() {
        pauses.userPause(true);
        state.compareAndSet(TaskState.RUNNING, TaskState.PAUSE_REQUESTED);
        wakeup();
    }

    /** Asks a paused task to resume. */
    @Override
    public void requestResume() {
        pauses.userPause(false);
        state.updateAndGet(s -> s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED ? TaskState.RESUME_REQUESTED
                : s);
        wakeup();
    }

    /** Camel's Pausable EIP: the listener consulted after each record and, while paused by it, at each poll. */
    @Override
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        failures.setListener(listener);
    }

    /**
     * Where committed offsets are also kept and newly assigned partitions start (offsetRepository, Camel's resume
     * strategies). Set before the task runs.
     */
    public void setOffsetStore(OffsetStore store) {
        commits.setOffsetStore(store);
        partitions.setOffsetStore(store);
    }

    /**
     * The first assignment of the route this task belongs to, shared by all its tasks: {@code seekTo} applies to it
     * only. Set before the task runs; without it the task is its route's only one.
     */
    public void setFirstAssignment(FirstAssignment firstAssignment) {
        partitions.setFirstAssignment(firstAssignment);
    }

    /**
     * transacted: every commit of this task becomes a transaction of its own producer, made from these properties
     * (its transactional id among them). Set before the task runs.
     */
    public void setTransactions(Properties producerProperties,
                                Function<Properties, Producer<byte[], byte[]>> producers) {
        transactions = new TransactedCommits(threadName, producerProperties, producers, settings, partitions,
                () -> consumer);
        settlement.useTransactions(transactions);
        partitions.onSeekBack(TransactedCommits::seekingBack);
    }

    /** The partitions an operator paused on the route's consumer, shared by its tasks; set before the task runs. */
    public void setPartitionPauses(PartitionPauses pauses) {
        partitions.pauses().setOperatorPauses(pauses);
    }

    /** Any thread: the route's {@link PartitionPauses} changed; the fetch thread applies them at its next turn. */
    public void partitionPausesChanged() {
        wakeup();
    }

    /**
     * Any thread: asks the fetch thread to park the unfinished record at that offset (see {@link OperatorControls}).
     * The outcome is a message once it is done, null when the partition is not assigned to this task, or the reason
     * it cannot be parked.
     */
    public CompletableFuture<String> requestPark(TopicPartition partition, long offset, String requestedBy) {
        return operator.requestPark(partition, offset, requestedBy);
    }

    /**
     * Any thread: asks the fetch thread to seek the partition to {@code offset} (see {@link PartitionSeeks}). The
     * outcome is a message once it is done, null when the partition is not assigned to this task, or the reason it was
     * refused.
     *
     * @param asked how the operator named the target (an offset, or a time and the offset it falls on)
     */
    public CompletableFuture<String> requestSeek(TopicPartition partition, long offset, String asked,
                                                 boolean confirmSkip, String requestedBy) {
        return operator.requestSeek(new PartitionSeeks.Seek(partition, offset, asked, confirmSkip, requestedBy,
                new CompletableFuture<>()));
    }

    public boolean awaitTermination(long timeoutMs) throws InterruptedException {
        return terminated.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void wakeup() {
        TaskConsumer c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    // ---- the fetch thread ----

    @Override
    public void run() {
        try {
            while (!stop.requested()) {
                if (!connect()) {
                    break;
                }
                if (!pollLoop()) {
                    break;
                }
                metrics.reconnected();
                setState(TaskState.RECONNECTING);
                closeConsumer();
                if (stop.sleep(settings.createConsumerBackoffIntervalMs())) {
                    break;
                }
            }
        } catch (Throwable t) {
            metrics.error(t);
            LOG.error("Fetch task {} failed and terminates: {}", threadName, t.toString(), t);
        } finally {
            try {
                closeConsumer();
                if (manualCommits != null) {
                    manualCommits.close();
                }
                if (transactions != null) {
                    transactions.close();
                }
            } finally {
                setState(TaskState.TERMINATED);
                operator.close();
                terminated.countDown();
            }
        }
    }

    /** Creates the consumer, then subscribes, each with retry and backoff; false when it gave up or must stop. */
    private boolean connect() throws InterruptedException {
        setState(TaskState.CONNECTING);
        if (!stop.retry(threadName, "create its KafkaConsumer", settings.createConsumerBackoffMaxAttempts(),
                settings.createConsumerBackoffIntervalMs(), this::attemptFailed, () -> {
                    if (transactions != null) {
                        transactions.attached(); // its producer first: it must not be behind the consumer
                    }
                    decoder = decoderFactory.get();
                    consumer = new TaskConsumer(consumerFactory.apply(settings.properties()),
                            settings.properties().getProperty("client.id"));
                    partitions.attach(consumer, settlement.committer());
                    completions.reset();
                })) {
            return false;
        }
        setState(TaskState.SUBSCRIBING);
        if (!stop.retry(threadName, "subscribe", settings.subscribeConsumerBackoffMaxAttempts(),
                settings.subscribeConsumerBackoffIntervalMs(), this::attemptFailed, () -> {
                    if (settings.pattern() != null) {
                        consumer.subscribe(settings.pattern(), partitions);
                    } else {
                        consumer.subscribe(settings.subscribedTopics(), partitions);
                    }
                })) {
            return false;
        }
        setState(TaskState.RUNNING);
        LOG.info("Fetch task {} subscribed to {} in group {}", threadName, settings.subscription(), settings.groupId());
        return true;
    }

    /** Polls until stopped (returns false) or until the consumer must be created again (returns true). */
    private boolean pollLoop() throws InterruptedException {
        while (!stop.requested()) {
            long now = System.currentTimeMillis();
            applyRequestedState();
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(pollTimeout(now));
            } catch (WakeupException e) {
                records = ConsumerRecords.empty(); // a signal (stop, pause, commit, room, seek back): look at it
            } catch (RuntimeException e) {
                metrics.pollFailed();
                PollOnError action = pollErrors.handle(e);
                if (action == PollOnError.STOP || action == PollOnError.RECONNECT) {
                    return action == PollOnError.RECONNECT;
                }
                if (stop.sleep(Math.min(settings.pollTimeoutMs(), 500))) {
                    return false;
                }
                publishSnapshot(now);
                continue;
            }
            now = System.currentTimeMillis();
            metrics.polled(now, records.count());
            intake.take(records, decoder, now);
            settlement.settle();
            if (settlement.restartAborted()) { // a transaction aborted in a revoke callback of this poll
                return true;
            }
            settlement.seekBack();
            intake.dispatchDueBatch(now, !records.isEmpty());
            settlement.commitIfDue(now);
            if (settlement.restartAborted()) {
                return true;
            }
            applyBackPressure();
            nextRetryDueMs = partitions.pauses().resumeDue(now);
            stalls.check(now);
            publishSnapshot(now);
        }
        return false;
    }

    private long pollTimeout(long nowMs) {
        long timeout = settings.pollTimeoutMs();
        if (partitions.unfinished() > 0 || completions.paused()) {
            timeout = Math.min(timeout, BUSY_POLL_MS);
        }
        if (pauses.listenerPaused()) {
            timeout = Math.min(timeout, LISTENER_CHECK_MS); // ask the Pausable EIP's until-check often
        }
        if (nextRetryDueMs != Long.MAX_VALUE) {
            timeout = Math.min(timeout, nextRetryDueMs - nowMs); // a retry letter falls due
        }
        if (settings.autoCommitEnable() && partitions.needCommit()) {
            timeout = Math.min(timeout, commits.millisUntilDue(nowMs));
        }
        return Math.max(Math.min(timeout, intake.millisUntilBatchDue(nowMs)), 0);
    }

    /** brings the consumer and the dispatcher in line with pause and resume requests. */
    private void applyRequestedState() {
        TaskState target = pauses.apply(failures.listener(), this) ? TaskState.PAUSED : TaskState.RUNNING;
        operator.apply();
        // a request arriving meanwhile changed the flags and woke the consumer: the next turn applies it
        state.updateAndGet(s -> s == TaskState.RUNNING || s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED
                                || s == TaskState.RESUME_REQUESTED ? target : s);
    }

    /** finished records into their windows (also called by the partitions' revoke, before it commits). */
    private void settle() {
        settlement.settle();
    }

    /** pauses the partitions while the window is full, resumes them once it has room. */
    private void applyBackPressure() {
        int heldRecords = partitions.held();
        metrics.held(heldRecords);
        boolean was = completions.paused();
        if (completions.update(heldRecords, partitions.unfinished()) != was) {
            if (!was) {
                metrics.backPressurePaused();
            }
            pauses.applyToPartitions();
        }
    }

    // ---- closing ----

    /** Starts nothing new, waits for running records (bounded by shutdownTimeout), commits what finished, closes. */
    private void closeConsumer() {
        TaskConsumer c = consumer;
        if (c == null) {
            return;
        }
        dispatcher.hold(true);
        partitions.stopStarting(item -> true);
        partitions.awaitRunning(partitions.all(), settings.shutdownTimeoutMs());
        if (manualCommits != null && !settings.autoCommitEnable()) {
            // about as long as camel-kafka's stop waits for its poll loop
            manualCommits.awaitLate(partitions::finishedNotCommitted, settlement::settle, settings.pollTimeoutMs());
        }
        settlement.dropBreaks();
        // an interrupt (a forced shutdown) ends the wait, but not the commit and the leave-group request: a member
        // that left no commit re-delivers more, and one that did not leave holds its partitions for a session timeout
        boolean interrupted = Thread.interrupted();
        settlement.commitFinished();
        partitions.retireAll();
        c.close(Duration.ofMillis(Math.min(settings.commitTimeoutMs(), 5000)));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        consumer = null;
        pauses.restoreHold();
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        publishSnapshot(System.currentTimeMillis());
    }

    // ---- helpers ----

    /** A failed create or subscribe attempt: the console and health checks show why at once, not after it works. */
    private void attemptFailed(RuntimeException e) {
        metrics.error(e);
        publishSnapshot(System.currentTimeMillis());
    }

    private void setState(TaskState s) {
        state.set(s);
        publishSnapshot(System.currentTimeMillis());
    }

    private void publishSnapshot(long nowMs) {
        TaskConsumer c = consumer;
        if (transactions != null) {
            txSnapshot = transactions.snapshot(nowMs);
        }
        snapshot = metrics.snapshot(state.get().name(), c != null ? c.membership(nowMs) : TaskMetrics.Membership.NONE,
                c != null ? partitions.snapshot(partitionSnapshots, nowMs) : List.of(), partitions.unfinished(),
                partitions.held(),
                dispatcher.load(), commits, c != null ? c.reachability() : null, nowMs);
    }
}
