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
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.error.FailureRouter;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.error.StallDetector;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.metrics.TaskSnapshot;
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
 * only in the bounded waits of revoke and stop (§4.4, §4.5). The parts it calls, wired in {@link TaskParts}, each keep
 * one of these: the {@link PartitionStates} (per-partition state, rebalances, seek backs), the {@link Dispatcher}
 * (order, concurrency), the {@link CompletionQueue} (completions, back-pressure), the {@link FailureRouter}, the
 * {@link CommitManager} and the {@link ManualCommitQueue} (both through the {@link Settlement}, the loop's way back
 * from the route), the {@link StallDetector}, the {@link RecordIntake} and the {@link TaskMetrics}.
 * With {@code transacted}, every commit goes through {@link TransactedCommits} instead of the consumer: one transaction
 * with the outputs of the records it counts finished, and an abort reads its partitions again before any other commit.
 */
public final class KafkaFetchRecords implements FetchTask {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaFetchRecords.class);

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

    private final TaskParts parts;
    // confined to the fetch thread
    private RecordDecoder decoder;
    /** Null unless transacted. */
    private TransactedCommits transactions;

    /**
     * @param processorFactory runs records through the route, given the manual-commit queue (null unless
     *                         allowManualCommit)
     * @param letters          null without a dead-letter topic
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
        this.parts = new TaskParts(settings, threadName, processorFactory, workers, exceptionHandler,
                pollExceptionStrategy, letters, new TaskParts.Owner() {
                    @Override
                    public void wakeup() {
                        KafkaFetchRecords.this.wakeup();
                    }

                    @Override
                    public void requestStop() {
                        KafkaFetchRecords.this.requestStop();
                    }

                    @Override
                    public TaskConsumer consumer() {
                        return consumer;
                    }

                    @Override
                    public void publishSnapshot() {
                        KafkaFetchRecords.this.publishSnapshot(System.currentTimeMillis());
                    }
                });
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
     * for the next snapshot; {@link ClientReachability#refresh} reads the client's parts.metrics, never the consumer.
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
        parts.pauses.userPause(true);
        state.compareAndSet(TaskState.RUNNING, TaskState.PAUSE_REQUESTED);
        wakeup();
    }

    /** Asks a paused task to resume. */
    @Override
    public void requestResume() {
        parts.pauses.userPause(false);
        state.updateAndGet(s -> s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED ? TaskState.RESUME_REQUESTED
                : s);
        wakeup();
    }

    /** Camel's Pausable EIP: the listener consulted after each record and, while paused by it, at each poll. */
    @Override
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        parts.failures.setListener(listener);
    }

    /**
     * Where committed offsets are also kept and newly assigned parts.partitions start (offsetRepository, Camel's resume
     * strategies). Set before the task runs.
     */
    public void setOffsetStore(OffsetStore store) {
        parts.commits.setOffsetStore(store);
        parts.partitions.setOffsetStore(store);
    }

    /**
     * The first assignment of the route this task belongs to, shared by all its tasks: {@code seekTo} applies to it
     * only. Set before the task runs; without it the task is its route's only one.
     */
    public void setFirstAssignment(FirstAssignment firstAssignment) {
        parts.partitions.setFirstAssignment(firstAssignment);
    }

    /**
     * transacted: every commit of this task becomes a transaction of its own producer, made from these properties
     * (its transactional id among them). Set before the task runs.
     */
    public void setTransactions(Properties producerProperties,
                                Function<Properties, Producer<byte[], byte[]>> producers) {
        transactions = new TransactedCommits(threadName, producerProperties, producers, settings, parts.partitions,
                () -> consumer);
        parts.settlement.useTransactions(transactions);
        parts.partitions.onSeekBack(TransactedCommits::seekingBack);
    }

    /** The parts.partitions an parts.operator paused on the route's consumer, shared by its tasks; set before the task runs. */
    public void setPartitionPauses(PartitionPauses pauses) {
        parts.partitions.pauses().setOperatorPauses(pauses);
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
        return parts.operator.requestPark(partition, offset, requestedBy);
    }

    /**
     * Any thread: asks the fetch thread to seek the partition to {@code offset} (see {@link PartitionSeeks}). The
     * outcome is a message once it is done, null when the partition is not assigned to this task, or the reason it was
     * refused.
     *
     * @param asked how the parts.operator named the target (an offset, or a time and the offset it falls on)
     */
    public CompletableFuture<String> requestSeek(TopicPartition partition, long offset, String asked,
                                                 boolean confirmSkip, String requestedBy) {
        return parts.operator.requestSeek(new PartitionSeeks.Seek(partition, offset, asked, confirmSkip, requestedBy,
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
                parts.metrics.reconnected();
                setState(TaskState.RECONNECTING);
                closeConsumer();
                if (stop.sleep(settings.createConsumerBackoffIntervalMs())) {
                    break;
                }
            }
        } catch (Throwable t) {
            parts.metrics.error(t);
            LOG.error("Fetch task {} failed and terminates: {}", threadName, t.toString(), t);
        } finally {
            try {
                closeConsumer();
                if (parts.manualCommits != null) {
                    parts.manualCommits.close();
                }
                if (transactions != null) {
                    transactions.close();
                }
            } finally {
                setState(TaskState.TERMINATED);
                parts.operator.close();
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
                    parts.partitions.attach(consumer, parts.settlement.committer());
                    parts.completions.reset();
                })) {
            return false;
        }
        setState(TaskState.SUBSCRIBING);
        if (!stop.retry(threadName, "subscribe", settings.subscribeConsumerBackoffMaxAttempts(),
                settings.subscribeConsumerBackoffIntervalMs(), this::attemptFailed, () -> {
                    if (settings.pattern() != null) {
                        consumer.subscribe(settings.pattern(), parts.partitions);
                    } else {
                        consumer.subscribe(settings.subscribedTopics(), parts.partitions);
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
                records = consumer.poll(parts.pollTimeout(settings, now));
            } catch (WakeupException e) {
                records = ConsumerRecords.empty(); // a signal (stop, pause, commit, room, seek back): look at it
            } catch (RuntimeException e) {
                parts.metrics.pollFailed();
                PollOnError action = parts.pollErrors.handle(e);
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
            if (!parts.afterPoll(settings, records, decoder, now)) { // a transaction aborted: read its partitions again
                return true;
            }
            publishSnapshot(now);
        }
        return false;
    }

    /** brings the consumer and the dispatcher in line with pause and resume requests. */
    private void applyRequestedState() {
        TaskState target = parts.pauses.apply(parts.failures.listener(), this) ? TaskState.PAUSED : TaskState.RUNNING;
        parts.operator.apply();
        // a request arriving meanwhile changed the flags and woke the consumer: the next turn applies it
        state.updateAndGet(s -> s == TaskState.RUNNING || s == TaskState.PAUSED || s == TaskState.PAUSE_REQUESTED
                                || s == TaskState.RESUME_REQUESTED ? target : s);
    }

    // ---- closing ----

    /** Winds the parts down (see {@link TaskParts#windDown}), then closes the consumer, which leaves the group. */
    private void closeConsumer() {
        TaskConsumer c = consumer;
        if (c == null) {
            return;
        }
        // the leave-group request goes out even on a forced shutdown: a member that did not leave holds its
        // partitions for a session timeout
        boolean interrupted = parts.windDown(settings);
        c.close(Duration.ofMillis(Math.min(settings.commitTimeoutMs(), 5000)));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        consumer = null;
        parts.pauses.restoreHold();
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        publishSnapshot(System.currentTimeMillis());
    }

    // ---- helpers ----

    /** A failed create or subscribe attempt: the console and health checks show why at once, not after it works. */
    private void attemptFailed(RuntimeException e) {
        parts.metrics.error(e);
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
        snapshot = parts.metrics.snapshot(state.get().name(),
                c != null ? c.membership(nowMs) : TaskMetrics.Membership.NONE,
                c != null ? parts.partitions.snapshot(parts.partitionSnapshots, nowMs) : List.of(),
                parts.partitions.unfinished(),
                parts.partitions.held(),
                parts.dispatcher.load(), parts.commits, c != null ? c.reachability() : null, nowMs);
    }
}
