package dev.kafkafetch.task;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.LongStream;

import dev.kafkafetch.commit.DefaultKafkaManualCommitFactory;
import dev.kafkafetch.commit.ManualCommitQueue;
import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.serde.RecordDecoder;
import org.apache.camel.support.LoggingExceptionHandler;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.kafkafetch.task.WakeupInjectingConsumer.COMMIT_SYNC;
import static dev.kafkafetch.task.WakeupInjectingConsumer.POLL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

/**
 * A wakeup meant for {@code poll()} (a manual commit request, a pause or resume, the Pausable EIP, the back-pressure
 * wake) that arrives after poll's last wakeup check is thrown by the next blocking consumer call, whichever it is.
 * These tests put it exactly there ({@link WakeupInjectingConsumer} around a log-backed MockConsumer) and prove that
 * it aborts nothing: when it lands while a breakOnFirstError seek-back is pending (a seek back commits nothing, so the
 * next poll takes it), every record polled is still processed (the failed one retried), and when it hits a
 * synchronous manual commit, the commit still succeeds and the record is not treated as failed. Each test first
 * checks where the wakeup was thrown (the next poll; the manual commit's commitSync) and fails if elsewhere.
 */
class LateWakeupTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final TopicPartition tp = new TopicPartition("t", 0);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private volatile ReplayingMockConsumer mock;
    private volatile WakeupInjectingConsumer<byte[], byte[]> consumer;
    private KafkaFetchRecords task;

    @AfterEach
    void stop() throws InterruptedException {
        if (task != null) {
            task.requestStop();
            task.awaitTermination(5000);
        }
        threads.shutdownNow();
    }

    @Test
    void aWakeupLandingWithASeekBackPendingLosesNoPolledRecord() throws Exception {
        Set<Long> processed = ConcurrentHashMap.newKeySet();
        AtomicReference<Runnable> failOffset3 = new AtomicReference<>();
        CountDownLatch offset3Running = new CountDownLatch(1);
        // breakOnFirstError with commits on, no interval commit: a seek back makes no blocking call
        start(settings(true, false, true, 3_600_000), commitQueue -> (item, callback) -> {
            if (item.offset() == 3 && item.attempt() == 1) {
                // the first delivery of offset 3 fails, asynchronously, when the test says so
                failOffset3.set(() -> {
                    item.fail("failed", new IllegalStateException("first delivery of offset 3 fails"));
                    callback.done(false);
                });
                offset3Running.countDown();
                return false;
            }
            processed.add(item.offset());
            callback.done(true);
            return true;
        });
        appendRecords(0, 10);
        assertThat(offset3Running.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        await().atMost(WAIT).until(() -> processed.containsAll(List.of(0L, 1L, 2L)));

        CountDownLatch landed = new CountDownLatch(1);
        mock.beforeNextPoll(() -> {
            // inside poll, after its wakeup check: new records arrive (returned by this poll), offset 3's failure
            // completes, and a wakeup lands; the first blocking call after this poll gets it
            appendRecords(10, 20);
            Thread worker = new Thread(failOffset3.get(), "route-worker");
            worker.start();
            join(worker);
            consumer.wakeup();
            landed.countDown();
        });
        assertThat(landed.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // the premise: the wakeup stayed pending across the seek back and was thrown by the next poll
        await().atMost(WAIT).until(() -> !consumer.thrown().isEmpty());
        assertThat(consumer.thrown()).as("where wakeups were thrown").first(STRING).startsWith(POLL + "#")
                .endsWith("(wakeup)");

        List<Long> all = LongStream.range(0, 20).boxed().toList();
        await().atMost(WAIT).untilAsserted(() -> assertThat(processed)
                .as("offsets processed (wakeups thrown at %s)", consumer.thrown()).containsAll(all));
        await().atMost(WAIT).untilAsserted(() -> assertThat(task.snapshot().inFlight()).as("in flight").isZero());
    }

    @Test
    void aWakeupMeantForPollDoesNotFailASynchronousManualCommit() throws Exception {
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        List<Throwable> commitErrors = new CopyOnWriteArrayList<>();
        CountDownLatch offset5Running = new CountDownLatch(1);
        CountDownLatch commitNow = new CountDownLatch(1);
        // manual commits only; breakOnFirstError, so a record whose commit() threw is delivered again
        start(settings(true, true, false, 200), commitQueue -> (item, callback) -> {
            deliveries.merge(item.offset(), 1, Integer::sum);
            if (item.offset() == 5 && item.attempt() == 1) {
                offset5Running.countDown();
                try {
                    commitNow.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                    // what the route does with the CamelKafkaManualCommit header (the synchronous default)
                    new DefaultKafkaManualCommitFactory().newInstance(commitQueue.targetFor(item)).commit();
                } catch (Exception e) {
                    commitErrors.add(e);
                    item.fail("failed", e); // an exception thrown inside the route fails the exchange
                }
            }
            callback.done(true);
            return true;
        });
        appendRecords(0, 10);
        assertThat(offset5Running.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        int wakeupsBefore = consumer.wakeupCalls();
        CountDownLatch landed = new CountDownLatch(1);
        mock.beforeNextPoll(() -> {
            // inside poll: the route asks for its commit, whose wakeup lands after poll's last wakeup check; the
            // poll returns records, so the wakeup is left for the next blocking call
            appendRecords(10, 12);
            commitNow.countDown();
            try {
                consumer.awaitWakeupCalls(wakeupsBefore + 1, Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            landed.countDown();
        });
        assertThat(landed.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // the premise: the wakeup was thrown by the manual commit's commitSync, not by a later poll
        await().atMost(WAIT).until(() -> !consumer.thrown().isEmpty());
        assertThat(consumer.thrown()).as("where wakeups were thrown").first(STRING).startsWith(COMMIT_SYNC + "#")
                .endsWith("(wakeup)");
        await().atMost(WAIT).until(() -> deliveries.keySet().containsAll(LongStream.range(0, 12).boxed().toList()));
        await().atMost(WAIT).until(() -> committedOffset() >= 6 || !commitErrors.isEmpty());
        Thread.sleep(300); // a re-delivery, if any, shows up meanwhile

        assertThat(commitErrors).as("manual commit errors (wakeups thrown at %s)", consumer.thrown()).isEmpty();
        assertThat(deliveries).as("deliveries per offset").allSatisfy((offset, n) -> assertThat(n).isEqualTo(1));
        assertThat(committedOffset()).isGreaterThanOrEqualTo(6);
    }

    private long committedOffset() {
        OffsetAndMetadata c = mock.committed(Set.of(tp)).get(tp);
        return c == null ? -1 : c.offset();
    }

    private void appendRecords(long from, long to) {
        for (long o = from; o < to; o++) {
            mock.append(tp, o, null, "v" + o);
        }
    }

    private static void join(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static TaskSettings settings(boolean breakOnFirstError, boolean allowManualCommit, boolean autoCommit,
                                         long autoCommitIntervalMs) {
        return TaskSettingsBuilder.taskSettings().breakOnFirstError(breakOnFirstError)
                .allowManualCommit(allowManualCommit)
                .autoCommitEnable(autoCommit).autoCommitIntervalMs(autoCommitIntervalMs).build();
    }

    private void start(TaskSettings settings, Function<ManualCommitQueue, ItemProcessor> processor) {
        task = new KafkaFetchRecords(settings, "late-wakeup-test", props -> {
            ReplayingMockConsumer m = new ReplayingMockConsumer();
            m.updateBeginningOffsets(Map.of(tp, 0L));
            m.schedulePollTask(() -> m.rebalance(List.of(tp)));
            mock = m;
            consumer = new WakeupInjectingConsumer<>(m);
            return consumer;
        }, () -> new RecordDecoder(new StringDeserializer(), new StringDeserializer(), Map.of()), processor, threads,
                new LoggingExceptionHandler(null, getClass()),
                new ConfiguredPollExceptionStrategy(PollOnError.ERROR_HANDLER), null);
        threads.submit(task);
        await().atMost(WAIT).until(() -> task.snapshot().partitions().size() == 1);
    }
}
