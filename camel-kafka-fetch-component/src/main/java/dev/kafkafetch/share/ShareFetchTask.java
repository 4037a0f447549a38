package dev.kafkafetch.share;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.kafkafetch.commit.CommitManager;
import dev.kafkafetch.dispatch.Dispatcher;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.dispatch.WorkItem;
import dev.kafkafetch.error.LetterPublisher;
import dev.kafkafetch.error.PollErrorHandler;
import dev.kafkafetch.error.PollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.metrics.ClientReachability;
import dev.kafkafetch.metrics.ShareSnapshot;
import dev.kafkafetch.metrics.TaskMetrics;
import dev.kafkafetch.metrics.TaskSnapshot;
import dev.kafkafetch.task.StopSignal;
import dev.kafkafetch.task.TaskState;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.kafka.clients.consumer.AcknowledgeType;
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
 * is stopped or killed before it finished; records held stay within {@code maxPollRecords} (DESIGN §4.3); a stop
 * releases what has not started, lets running records finish (bounded by shutdownTimeout) and accepts them.
 */
public final class ShareFetchTask implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ShareFetchTask.class);
    /** Poll timeout while renewed records have not been handed back yet. */
    private static final long RENEWING_POLL_MS = 50;

    private final ShareSettings settings;
    private final String threadName;
    private final Function<Properties, ShareConsumer<byte[], byte[]>> consumerFactory;
    private final Function<Class<?>, Deserializer<?>> deserializers;

    private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CONNECTING);
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile ShareClient client;
    private volatile TaskSnapshot snapshot;
    private volatile ShareSnapshot shareSnapshot;

    private final TaskMetrics metrics;
    private final ShareMetrics shareMetrics;
    private final ShareCompletions completions = new ShareCompletions();
    private final ShareOutcomes outcomes;
    private final Dispatcher dispatcher;
    private final HeldRecords held;
    private final PollErrorHandler pollErrors;
    /** Share groups commit no offsets: the snapshot's commit counters stay at zero. */
    private final CommitManager noOffsetCommits = new CommitManager(1, 1, false);
    private final ShareIntake intake;
    // confined to the fetch thread
    private ShareDecoder decoder;

    /**
     * @param deserializers creates a deserializer of the given class
     * @param processor     runs one record through the route
     * @param letters       null without a dead-letter topic
     */
    public ShareFetchTask(ShareSettings settings, String threadName,
                          Function<Properties, ShareConsumer<byte[], byte[]>> consumerFactory,
                          Function<Class<?>, Deserializer<?>> deserializers, ItemProcessor processor,
                          Executor workers, ExceptionHandler exceptionHandler,
                          PollExceptionStrategy pollExceptionStrategy, LetterPublisher letters) {
        this.settings = settings;
        this.threadName = threadName;
        this.consumerFactory = consumerFactory;
        this.deserializers = deserializers;
        this.metrics = new TaskMetrics(threadName, settings.subscription(), settings.groupId(),
                settings.maxInFlightRecords(), settings.maxConcurrency(), settings.masker());
        this.shareMetrics = new ShareMetrics(threadName, settings.groupId());
        this.outcomes = new ShareOutcomes(settings.groupId(), settings.deadLetterTopic(),
                settings.maxDeliveryAttempts(), letters, exceptionHandler, metrics, completions::offer);
        this.dispatcher = new Dispatcher(settings.ordering(), false, settings.maxConcurrency(),
                settings.maxConcurrency(), workers, processor, outcomes);
        this.held = new HeldRecords((record, type) -> client.acknowledge(record, type), shareMetrics);
        this.intake = new ShareIntake(threadName, settings, held, dispatcher, outcomes, completions, metrics,
                shareMetrics);
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

    /** Asks the task to stop: it releases what has not started, finishes and accepts what runs, and closes. */
    public void requestStop() {
        stop.request();
        completions.signal();
        ShareClient c = client;
        if (c != null) {
            c.wakeup();
        }
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
        readDeliveryLimit();
        setState(TaskState.RUNNING);
        LOG.info("Share fetch task {} subscribed to {} in share group {} (a failure is final on delivery {})",
                threadName, settings.subscription(), settings.groupId(), outcomes.maxAttempts());
        return true;
    }

    /** The broker archives a record after the group's delivery limit: its last delivery must be dead-lettered. */
    private void readDeliveryLimit() {
        int wanted = settings.maxDeliveryAttempts();
        int limit;
        try {
            limit = GroupLimits.deliveryCountLimit(settings.producerProperties(), settings.groupId(),
                    settings.commitTimeoutMs());
            shareMetrics.deliveryCountLimit(limit);
        } catch (Exception e) {
            limit = GroupLimits.KAFKA_DEFAULT_DELIVERY_COUNT_LIMIT;
            LOG.warn("Share fetch task {} cannot read {} of share group {} ({}); assuming Kafka's default {}",
                    threadName, GroupLimits.DELIVERY_COUNT_LIMIT, settings.groupId(), e.toString(), limit);
        }
        if (wanted > limit) {
            LOG.warn("Share fetch task {}: maxDeliveryAttempts={} is above share group {}'s {}={}: a record's"
                     + " failure is final on delivery {}",
                    threadName, wanted, settings.groupId(), GroupLimits.DELIVERY_COUNT_LIMIT, limit, limit);
        }
        outcomes.setMaxAttempts(Math.min(wanted, limit));
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
            if (held.inClient() > 0) {
                intake.awaitOutcomes(now, intake.renewAtMs());
                if (held.inClient() > 0 && System.currentTimeMillis() >= intake.renewAtMs()) {
                    intake.renew(false);
                }
            } else {
                long timeout = held.renewing() > 0 ? RENEWING_POLL_MS : settings.pollTimeoutMs();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = client.poll(timeout);
                } catch (WakeupException e) {
                    records = ConsumerRecords.empty(); // a stop request: the loop looks at it
                } catch (RuntimeException e) {
                    metrics.pollFailed();
                    PollOnError action = pollErrors.handle(e);
                    if (action == PollOnError.STOP || action == PollOnError.RECONNECT) {
                        return action == PollOnError.RECONNECT;
                    }
                    if (stop.sleep(Math.min(settings.pollTimeoutMs(), 500))) {
                        return false;
                    }
                    continue;
                }
                metrics.polled(System.currentTimeMillis(), records.count());
                intake.take(records, now, stop.requested());
            }
            publishSnapshot(System.currentTimeMillis());
        }
        return false;
    }

    // ---- closing ----

    /**
     * Releases what has not started, waits for running records (bounded by shutdownTimeout, renewing their locks) and
     * acknowledges them, commits the acknowledgements and closes. Records still running then are released by the
     * close (the broker may deliver them again).
     */
    private void closeClient() {
        ShareClient c = client;
        if (c == null) {
            return;
        }
        dispatcher.hold(true);
        for (WorkItem item : dispatcher.cancel(item -> true)) {
            held.decided(item, AcknowledgeType.RELEASE);
        }
        long deadline = System.currentTimeMillis() + settings.shutdownTimeoutMs();
        try {
            while (held.inClient() + held.renewing() > 0 && System.currentTimeMillis() < deadline) {
                long now = System.currentTimeMillis();
                if (held.inClient() > 0) {
                    intake.awaitOutcomes(now, Math.min(intake.renewAtMs(), deadline));
                    if (held.inClient() > 0 && System.currentTimeMillis() >= intake.renewAtMs()) {
                        intake.renew(true);
                    }
                } else {
                    intake.take(c.poll(RENEWING_POLL_MS), now, true);
                }
                publishSnapshot(System.currentTimeMillis());
            }
        } catch (InterruptedException e) {
            LOG.warn("Share fetch task {} interrupted while its records finish; closing now", threadName);
        } catch (RuntimeException e) {
            metrics.error(e);
        }
        // an interrupt (a forced shutdown) ends the wait, not the last acknowledgements
        boolean interrupted = Thread.interrupted();
        try {
            c.commitSync(settings.commitTimeoutMs());
        } catch (RuntimeException e) {
            metrics.error(e);
            LOG.warn("Share fetch task {}: the last acknowledgements were not committed: {}", threadName, e.toString());
        }
        c.close(Math.min(settings.commitTimeoutMs(), 5000));
        held.clear();
        client = null;
        intake.attach(null, null);
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        publishSnapshot(System.currentTimeMillis());
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- helpers ----

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
        shareSnapshot = shareMetrics.snapshot(held.size(), outcomes.maxAttempts(), nowMs);
    }
}
