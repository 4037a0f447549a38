package dev.kafkafetch.share;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.ProcessingResult;
import dev.kafkafetch.dispatch.SharedSlots;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollErrorHandler;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.error.StallDetector;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.FetchTask;
import dev.kafkafetch.task.StopSignal;
import dev.kafkafetch.task.TaskState;
import org.apache.camel.resume.ConsumerListener;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One share fetch task: one thread and one KafkaShareConsumer (explicit acknowledgement, at most
 * {@code maxPollRecords} records acquired per poll), which nothing else touches (other threads only wake it to stop
 * it, through {@link ShareClient#wakeup()}, and hand it decided records through {@link ShareCompletions}).
 * <p>
 * The loop: poll while the task holds nothing; run what was acquired through the {@link Dispatcher} (up to
 * {@code maxConcurrency} at once, UNORDERED or by KEY); acknowledge each record as its outcome is decided
 * ({@link ShareOutcomes}, {@link ShareIntake}); poll again once every record of the last poll is acknowledged. A share consumer may not
 * poll before that, so while records run the fetch thread waits for their outcomes, never for the route itself, and
 * before half an acquisition lock has passed it renews every record still held (RENEW, a synchronous acknowledgement
 * commit, then a zero-time poll that hands them back), so no other member gets them meanwhile and the consumer polls
 * well within {@code max.poll.interval.ms}.
 * <p>
 * Guarantees: every acquired record is acknowledged exactly once by this task, with its decided outcome (ACCEPT only
 * when the route finished it or its dead letter is acknowledged), or left to the broker's lock timeout when the task
 * is stopped or killed before it finished; records held stay within {@code maxPollRecords} (docs/design.md §4.3); a
 * stop, a reconnect and a suspend leave the share group through {@link ShareLeave}, which gives back what has not
 * started and still has deliveries left, runs what is on its last delivery, and lets running records finish and accepts
 * them. A pause asked for by the Pausable EIP's listener ({@link SharePausable}) leaves the group the same way, until
 * the listener's resume check says to join again.
 * With {@code consumersPerWindow} above 1 its dispatcher shares its slots with its window's other tasks
 * ({@link SharedSlots}), each keeping its own consumer, records and guarantees.
 */
public final class ShareFetchTask implements FetchTask {

    private static final Logger LOG = LoggerFactory.getLogger(ShareFetchTask.class);

    private final ShareSettings settings;
    private final String threadName;
    private final Function<Properties, ShareConsumer<byte[], byte[]>> consumerFactory;
    private final Function<Class<?>, Deserializer<?>> deserializers;

    private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CONNECTING);
    private final StopSignal stop = new StopSignal();
    private final AtomicBoolean suspendRequested = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile ShareClient client;
    private volatile TaskSnapshot snapshot;
    private volatile ShareSnapshot shareSnapshot;

    private final TaskMetrics metrics;
    private final ShareMetrics shareMetrics;
    private final ShareCompletions completions = new ShareCompletions();
    private final DeliveryLimit limit = new DeliveryLimit();
    private final DeliveryLimitRefresh limitRefresh;
    private final Executor background;
    private final ShareOutcomes outcomes;
    private final Dispatcher dispatcher;
    private final HeldRecords held;
    private final PollErrorHandler pollErrors;
    private final StallDetector stalls;
    /** Share groups commit no offsets: the snapshot's commit counters stay at zero. */
    private final CommitManager noOffsetCommits = new CommitManager(1, 1, false);
    private final ShareIntake intake;
    private final ShareLeave leave;
    private final LeavingTogether together;
    private final SharePausable pausable;
    // confined to the fetch thread
    private ShareDecoder decoder;

    /**
     * @param admins        creates the admin client that reads the group's delivery limit
     * @param deserializers creates a deserializer of the given class
     * @param processor     runs one record through the route
     * @param letters       null without a dead-letter topic
     * @param slots         the window this task shares with the other consumers of its member, or null
     * @param together      the route's tasks, which leave the group together at a stop or suspend
     */
    public ShareFetchTask(ShareSettings settings, String threadName,
                          Function<Properties, ShareConsumer<byte[], byte[]>> consumerFactory,
                          Function<Properties, Admin> admins, Function<Class<?>, Deserializer<?>> deserializers,
                          ItemProcessor processor,
                          Executor workers, ExceptionHandler exceptionHandler,
                          PollExceptionStrategy pollExceptionStrategy, LetterPublisher letters,
                          SharedSlots slots, LeavingTogether together) {
        this.settings = settings;
        this.threadName = threadName;
        this.consumerFactory = consumerFactory;
        this.background = workers;
        this.limitRefresh = new DeliveryLimitRefresh(threadName, settings.groupId(), settings.maxDeliveryAttempts(),
                limit, () -> GroupLimits.deliveryCountLimit(admins, settings.producerProperties(), settings.groupId(),
                        settings.commitTimeoutMs()));
        this.deserializers = deserializers;
        this.metrics = new TaskMetrics(threadName, settings.subscription(), settings.groupId(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), settings.masker());
        this.shareMetrics = new ShareMetrics(threadName, settings.groupId());
        this.pausable = new SharePausable(threadName, this::holdQueued);
        this.outcomes = new ShareOutcomes(settings.groupId(), settings.deadLetterTopic(),
                settings.maxDeliveryAttempts(), limit, letters, exceptionHandler, metrics, pausable,
                completions::offer);
        this.dispatcher = new Dispatcher(settings.ordering(), false, settings.maxConcurrency(),
                settings.maxConcurrency(), workers, processor, outcomes, slots);
        this.stalls = new StallDetector(settings.stallTimeoutMs(), dispatcher, outcomes::stalled, metrics);
        this.held = new HeldRecords((record, type) -> client.acknowledge(record, type), shareMetrics);
        this.intake = new ShareIntake(threadName, settings, held, dispatcher, outcomes, completions, metrics,
                shareMetrics, limit);
        this.together = together;
        this.leave = new ShareLeave(threadName, settings, held, intake, dispatcher, stalls, limit, completions, metrics,
                this::publishSnapshot, together);
        together.member(leave, () -> client != null);
        this.pollErrors = new PollErrorHandler(threadName, settings.subscription(), pollExceptionStrategy,
                exceptionHandler, metrics);
        this.snapshot = TaskSnapshot.initial(threadName, TaskState.CONNECTING.name(), settings.subscription(),
                settings.groupId(), settings.maxInFlightRecords(), settings.maxConcurrency());
        this.shareSnapshot = ShareSnapshot.initial(threadName, settings.groupId(), settings.maxDeliveryAttempts());
    }

    // ---- called from any thread ----

    public TaskState state() {
        return state.get();
    }

    /** The latest snapshot published by the fetch thread. Never blocks. */
    public TaskSnapshot snapshot() {
        return snapshot;
    }

    /** The latest share-group snapshot published by the fetch thread. Never blocks. */
    public ShareSnapshot shareSnapshot() {
        return shareSnapshot;
    }

    public String threadName() {
        return threadName;
    }

    /** The live reachability of the task's current consumer (null while it has none); reads metrics only. */
    public ClientReachability reachability() {
        ShareClient c = client;
        return c != null ? c.reachability() : null;
    }

    /** Asks the task to stop: it releases what need not run, finishes and accepts what runs, and closes. */
    public void requestStop() {
        stop.request();
        leaveWithTheOthers();
    }

    /**
     * Asks the task to suspend (Camel's route suspend): it closes its consumer as a stop does (gives back what has not
     * started, runs what is on its last delivery, lets running records finish and accepts them), so it leaves the
     * share group and the other members get the work; on resume it creates its consumer again.
     */
    @Override
    public void requestPause() {
        suspendRequested.set(true);
        leaveWithTheOthers();
    }

    /** The route asks all its tasks to leave (the first request joins them all); this one is woken from its wait. */
    private void leaveWithTheOthers() {
        together.join();
        completions.signal();
        ShareClient c = client;
        if (c != null) {
            c.wakeup();
        }
    }

    /** Asks a suspended task to join the share group again and go on (unless the Pausable EIP keeps it paused). */
    @Override
    public void requestResume() {
        suspendRequested.set(false);
        completions.signal();
    }

    /**
     * Camel's Pausable EIP: the listener hears of every record the route finished; when it asks for a pause the task
     * leaves the share group as a suspend does (the failed record that asked for it is released unless that was its
     * last delivery) and asks the listener's resume check every {@value SharePausable#CHECK_EVERY_MS} ms until it says
     * to join again.
     */
    @Override
    public void setConsumerListener(ConsumerListener<Object, ProcessingResult> listener) {
        pausable.setListener(listener);
    }

    public boolean awaitTermination(long timeoutMs) throws InterruptedException {
        return terminated.await(timeoutMs, TimeUnit.MILLISECONDS);
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
                if (pauseRequested()) {
                    closeClient();
                    setState(TaskState.PAUSED);
                    LOG.info("Share fetch task {} {}: it left share group {} until resumed", threadName,
                            suspendRequested.get() ? "suspended" : "paused by the Pausable EIP", settings.groupId());
                    leave.awaitResume(() -> suspendRequested.get() || pausable.stillPaused(this),
                            pausable.requested() ? SharePausable.CHECK_EVERY_MS : settings.pollTimeoutMs(), stop);
                    continue;
                }
                metrics.reconnected();
                setState(TaskState.RECONNECTING);
                closeClient();
                if (stop.sleep(settings.createConsumerBackoffIntervalMs())) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            // a forced shutdown: still acknowledge what finished and close (below)
            LOG.warn("Share fetch task {} interrupted; it acknowledges what finished and closes", threadName);
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            metrics.error(t);
            LOG.error("Share fetch task {} failed and terminates: {}", threadName, t.toString(), t);
        } finally {
            try {
                closeClient();
            } finally {
                setState(TaskState.TERMINATED);
                terminated.countDown();
            }
        }
    }

    /** Creates the consumer, subscribes, and reads the group's delivery limit; false when it gave up or must stop. */
    private boolean connect() throws InterruptedException {
        setState(TaskState.CONNECTING);
        if (!stop.retry(threadName, "create its KafkaShareConsumer", settings.createConsumerBackoffMaxAttempts(),
                settings.createConsumerBackoffIntervalMs(), this::attemptFailed, () -> {
                    Map<String, Object> config = new HashMap<>();
                    settings.properties().forEach((k, v) -> config.put(String.valueOf(k), v));
                    decoder = new ShareDecoder(deserializers.apply(settings.keyDeserializer()),
                            deserializers.apply(settings.valueDeserializer()), config);
                    ShareClient c = new ShareClient(consumerFactory.apply(settings.properties()),
                            settings.properties().getProperty("client.id"));
                    c.setAcknowledgementCommitCallback(intake::acknowledgementsCommitted);
                    client = c;
                    intake.attach(c, decoder);
                    dispatcher.hold(false);
                })) {
            return false;
        }
        setState(TaskState.SUBSCRIBING);
        if (!stop.retry(threadName, "subscribe", settings.subscribeConsumerBackoffMaxAttempts(),
                settings.subscribeConsumerBackoffIntervalMs(), this::attemptFailed,
                () -> client.subscribe(settings.topics()))) {
            return false;
        }
        limitRefresh.readNow(System.currentTimeMillis());
        setState(TaskState.RUNNING);
        LOG.info("Share fetch task {} subscribed to {} in share group {} (a failure is final on delivery {})",
                threadName, settings.subscription(), settings.groupId(), outcomes.maxAttempts());
        return true;
    }

    /** A failed create or subscribe attempt: the console and health checks show why at once. */
    private void attemptFailed(RuntimeException e) {
        metrics.error(e);
        publishSnapshot(System.currentTimeMillis());
    }

    /** Until stopped (returns false) or until the consumer must be created again (returns true). */
    private boolean pollLoop() throws InterruptedException {
        while (!stop.requested()) {
            long now = System.currentTimeMillis();
            limitRefresh.maybeRefresh(now, background);
            if (pauseRequested()) {
                return true; // closed like a stop, created again on resume
            }
            PollOnError end = null;
            if (held.inClient() > 0) {
                intake.awaitOutcomes(now, Math.min(intake.renewAtMs(), stalls.nextCheckAtMs(now)));
                stalls.check(System.currentTimeMillis());
                long start = System.currentTimeMillis();
                if (held.inClient() > 0 && start >= intake.renewAtMs() && intake.renew(start)) {
                    end = pollAndTake(0, start); // hands the renewed records back
                }
            } else {
                intake.awaitOutcomes(now, now); // late outcomes of records whose locks were lost: forgotten
                intake.expireRenewals(now);
                end = pollAndTake(held.renewing() > 0 ? ShareLeave.RENEWING_POLL_MS : settings.pollTimeoutMs(), now);
            }
            if (end != null) {
                return end == PollOnError.RECONNECT;
            }
            publishSnapshot(System.currentTimeMillis());
        }
        return false;
    }

    /**
     * One poll, and what it returned taken in; a poll error (the renewal's zero-time poll too) is handled by
     * pollOnError. Null to go on, else STOP or RECONNECT.
     */
    private PollOnError pollAndTake(long timeoutMs, long acquiredAtMs) throws InterruptedException {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = client.poll(timeoutMs);
            held.sent();
        } catch (WakeupException e) {
            held.sendUncertain();
            records = ConsumerRecords.empty(); // a stop request: the loop looks at it
        } catch (RuntimeException e) {
            held.sendUncertain();
            metrics.pollFailed();
            intake.pollFailed();
            PollOnError action = pollErrors.handle(e);
            if (action == PollOnError.STOP || action == PollOnError.RECONNECT) {
                return action;
            }
            return stop.sleep(Math.min(settings.pollTimeoutMs(), 500)) ? PollOnError.STOP : null;
        }
        metrics.polled(System.currentTimeMillis(), records.count());
        intake.take(records, acquiredAtMs, stop.requested());
        return null;
    }

    // ---- closing ----

    /** Leaves the share group through {@link ShareLeave#close} and forgets the consumer; nothing is held after it. */
    private void closeClient() {
        ShareClient c = client;
        if (c == null) {
            return;
        }
        try {
            leave.close(c);
        } finally {
            together.left(leave, () -> client = null);
        }
        intake.attach(null, null);
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        publishSnapshot(System.currentTimeMillis());
    }

    // ---- helpers ----

    /** Any thread (a worker whose record paused the task): no queued record starts until the task leaves the group. */
    private void holdQueued() {
        dispatcher.hold(true);
    }

    /** The route is suspended or the Pausable EIP's listener asked for a pause. */
    private boolean pauseRequested() {
        return suspendRequested.get() || pausable.requested();
    }

    private void setState(TaskState s) {
        state.set(s);
        publishSnapshot(System.currentTimeMillis());
    }

    private void publishSnapshot(long nowMs) {
        ShareClient c = client;
        ClientReachability reach = c != null ? c.reachability(nowMs) : null;
        TaskMetrics.Membership membership = c != null ? new TaskMetrics.Membership(null, null, -1, c.clientId())
                : TaskMetrics.Membership.NONE;
        snapshot = metrics.snapshot(state.get().name(), membership, List.of(), held.size(), held.size(),
                dispatcher.load(), noOffsetCommits, reach, nowMs);
        shareMetrics.deliveryCountLimit(limit.isKnown() ? limit.value() : -1);
        shareSnapshot = shareMetrics.snapshot(held.size(), outcomes.maxAttempts(), nowMs);
    }
}
