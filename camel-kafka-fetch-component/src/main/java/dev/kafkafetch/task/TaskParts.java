package dev.kafkafetch.task;

import java.util.concurrent.Executor;
import java.util.function.Function;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.Ordering;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.FailureRouter;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollErrorHandler;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.StallDetector;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.processor.BatchCollector;
import dev.kafkafetch.serde.RecordDecoder;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * The parts of one fetch task, wired to each other once, and the order in which the fetch thread moves through them:
 * after each poll, for the next poll's timeout, and when its consumer closes. Each part keeps one of the task's
 * guarantees (see {@link KafkaFetchRecords}); this class keeps none of its own and holds no state but when the next
 * retry falls due.
 */
final class TaskParts {

    /** Poll timeout while records are in flight, so completions are drained and commits made promptly. */
    private static final long BUSY_POLL_MS = 20;
    /** Poll timeout while paused by a Pausable EIP listener, whose until-check is asked at every poll. */
    private static final long LISTENER_CHECK_MS = 100;

    /** What the parts ask of the task that owns them; any thread may call these. */
    interface Owner {
        /** interrupts the fetch thread's poll so it looks at a new signal */
        void wakeup();

        void requestStop();

        /** the task's current consumer, null while it has none */
        TaskConsumer consumer();

        /** publishes a fresh snapshot (called on the fetch thread) */
        void publishSnapshot();
    }

    final TaskMetrics metrics;
    final CompletionQueue completions;
    final FailureRouter failures;
    final ManualCommitQueue manualCommits;
    final Dispatcher dispatcher;
    final CommitManager commits;
    final StallDetector stalls;
    final PartitionStates partitions;
    final Settlement settlement;
    final RecordIntake intake;
    final PauseControl pauses;
    final OperatorControls operator;
    final PartitionSnapshots partitionSnapshots;
    final PollErrorHandler pollErrors;
    // confined to the fetch thread
    private long nextRetryDueMs = Long.MAX_VALUE;

    /**
     * @param processorFactory runs records through the route, given the manual-commit queue (null unless
     *                         allowManualCommit)
     * @param letters          null without a dead-letter topic
     */
    TaskParts(TaskSettings settings, String threadName, Function<ManualCommitQueue, ItemProcessor> processorFactory,
              Executor workers, ExceptionHandler exceptionHandler, PollExceptionStrategy pollExceptionStrategy,
              LetterPublisher letters, Owner owner) {
        this.metrics = new TaskMetrics(threadName, settings.subscription(), settings.groupId(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), settings.masker());
        this.completions = new CompletionQueue(settings.maxInFlightRecords(), settings.maxPollRecords(), owner::wakeup);
        this.failures = new FailureRouter(settings.failureRules(), letters, exceptionHandler, metrics,
                pollExceptionStrategy, new FailureRouter.TaskSignals() {
                    @Override
                    public void completed(WorkItem item) {
                        completions.offer(item);
                    }

                    @Override
                    public void pauseForListener() {
                        pauses.listenerPause();
                        owner.wakeup();
                    }

                    @Override
                    public void stop() {
                        owner.requestStop();
                    }
                });
        this.manualCommits = settings.allowManualCommit()
                ? new ManualCommitQueue(settings.commitTimeoutMs(), owner::wakeup) : null;
        boolean batchesInOrder = settings.ordering() != Ordering.UNORDERED || settings.breakOnFirstError();
        this.dispatcher = new Dispatcher(settings.ordering(), batchesInOrder, settings.maxConcurrency(),
                settings.maxConcurrency(), workers, processorFactory.apply(manualCommits), failures);
        this.commits = new CommitManager(settings.autoCommitIntervalMs(), settings.finishedCommitIntervalMs(),
                settings.commitTimeoutMs(), settings.offsetMap() && settings.autoCommitEnable());
        BatchCollector batches = settings.batching()
                ? new BatchCollector(settings.batchingIntervalMs(), settings.maxPollRecords()) : null;
        this.stalls = new StallDetector(settings.stallTimeoutMs(), dispatcher,
                settings.deadLetterTopic() != null ? failures::deadLetterStalled : null, metrics);
        this.partitions = new PartitionStates(threadName, settings, dispatcher, batches, commits, metrics,
                this::settle, owner::publishSnapshot);
        this.settlement = new Settlement(completions, partitions, dispatcher, commits, manualCommits, metrics,
                settings.autoCommitEnable(), owner::consumer, owner::requestStop);
        this.intake = new RecordIntake(threadName, partitions, dispatcher, batches, metrics, settings.retries());
        this.pauses = new PauseControl(threadName, dispatcher, partitions, completions);
        this.operator = new OperatorControls(threadName, partitions, dispatcher, failures, metrics,
                new PartitionSeeks(threadName, settings, partitions, metrics), owner::consumer, owner::wakeup);
        this.partitionSnapshots = new PartitionSnapshots(dispatcher, settings.ordering(), settings.batching());
        this.pollErrors = new PollErrorHandler(threadName, settings.subscription(), pollExceptionStrategy,
                exceptionHandler, metrics);
    }

    /**
     * Fetch thread, after each poll: the records enter their windows, finished ones are settled, seek backs, a due
     * batch and a due commit are made, back-pressure, retries and stalls are looked at.
     *
     * @return false when a transaction aborted (in a revoke callback of this poll or in the commit): the consumer must
     *         be created again
     */
    boolean afterPoll(TaskSettings settings, ConsumerRecords<byte[], byte[]> records, RecordDecoder decoder, long now) {
        metrics.polled(now, records.count());
        intake.take(records, decoder, now);
        settlement.settle();
        if (settlement.restartAborted()) {
            return false;
        }
        settlement.seekBack();
        intake.dispatchDueBatch(now, !records.isEmpty());
        settlement.commitIfDue(now);
        if (settlement.restartAborted()) {
            return false;
        }
        applyBackPressure(settings);
        nextRetryDueMs = partitions.pauses().resumeDue(now);
        stalls.check(now);
        return true;
    }

    /** Fetch thread: how long the next poll may wait before something falls due. */
    long pollTimeout(TaskSettings settings, long nowMs) {
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

    /**
     * pauses a partition that holds more than its share (with KEY ordering, or while a slot is idle), and every one
     * while the window is full; resumes them
     */
    private void applyBackPressure(TaskSettings settings) {
        partitions.pauses().balance(settings.maxInFlightRecords(), settings.maxPollRecords(),
                ConsumerPauses.mayPauseAlone(settings.ordering(), dispatcher.load().running(),
                        settings.maxConcurrency()));
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

    /** finished records into their windows (also called by the partitions' revoke, before it commits) */
    private void settle() {
        settlement.settle();
    }

    /**
     * Fetch thread, before its consumer closes: starts nothing new, waits for running records (bounded by
     * shutdownTimeout) and for late manual commits, commits what finished and gives every partition up. An interrupt
     * (a forced shutdown) ends the waits but not the commit: a member that left no commit re-delivers more.
     *
     * @return whether the thread was interrupted; the flag is cleared so the commit can run, the caller restores it
     */
    boolean windDown(TaskSettings settings) {
        dispatcher.hold(true);
        partitions.stopStarting(item -> true);
        partitions.awaitRunning(partitions.all(), settings.shutdownTimeoutMs());
        if (manualCommits != null && !settings.autoCommitEnable()) {
            // about as long as camel-kafka's stop waits for its poll loop
            manualCommits.awaitLate(partitions::finishedNotCommitted, settlement::settle, settings.pollTimeoutMs());
        }
        settlement.dropBreaks();
        boolean interrupted = Thread.interrupted();
        settlement.commitFinished();
        partitions.retireAll();
        return interrupted;
    }
}
