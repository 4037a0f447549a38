package dev.kafkafetch.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.commit.DefaultKafkaManualCommitFactory;
import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.serde.RecordDecoder;
import org.apache.camel.support.LoggingExceptionHandler;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wakeup rule ({@link TaskConsumer}): a {@code WakeupException} thrown by any consumer call the fetch task makes,
 * not only by {@code poll}, leaves nothing half-done. One scenario exercises every call site: assignment (committed
 * offsets), a breakOnFirstError seek back, interval or manual commits, a revoke and a re-assignment, the snapshot's
 * reads, and the stop (commit, close). It runs once to count the task's calls per method, then once per call, with a
 * wakeup injected into exactly that call: every call of every method the task made in the counting run, including
 * the ones a real consumer never interrupts (stricter than Kafka). Every run must process every record exactly once
 * (the failed one once more, as planned), end with the end offsets committed and nothing in flight, and stop cleanly.
 */
class WakeupSweepTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        threads.shutdownNow();
    }

    @Test
    void aWakeupInAnyCallOfTheTaskLeavesNothingHalfDone_breakOnFirstError() throws Exception {
        sweep(false);
    }

    @Test
    void aWakeupInAnyCallOfTheTaskLeavesNothingHalfDone_manualCommits() throws Exception {
        sweep(true);
    }

    private void sweep(boolean manual) throws Exception {
        Map<String, Integer> calls = new Scenario(manual, null, 0).run();
        List<String> failures = new ArrayList<>();
        int runs = 0;
        for (Map.Entry<String, Integer> e : calls.entrySet()) {
            for (int n = 1; n <= e.getValue(); n++) {
                runs++;
                try {
                    new Scenario(manual, e.getKey(), n).run();
                } catch (AssertionError | Exception failure) {
                    failures.add(e.getKey() + "#" + n + ": " + failure.getMessage());
                }
            }
        }
        System.out.printf("wakeup sweep (%s): %d runs over the task's calls %s%n", manual ? "manual commits"
                : "breakOnFirstError", runs, calls);
        assertThat(runs).as("runs (calls per method: %s)", calls).isGreaterThan(calls.size());
        assertThat(failures).as("runs with a wakeup injected that left something half-done").isEmpty();
    }

    /** One run: what every run must end with, with a wakeup injected into one call (or none). */
    private final class Scenario {
        private final boolean manual;
        private final String method;
        private final int nth;
        private final Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();
        private final AtomicInteger failedDeliveries = new AtomicInteger();
        private final List<Throwable> commitErrors = new CopyOnWriteArrayList<>();
        private volatile ReplayingMockConsumer mock;
        private volatile WakeupInjectingConsumer<byte[], byte[]> consumer;

        Scenario(boolean manual, String method, int nth) {
            this.manual = manual;
            this.method = method;
            this.nth = nth;
        }

        Map<String, Integer> run() throws Exception {
            KafkaFetchRecords task = new KafkaFetchRecords(settings(), "sweep", props -> {
                ReplayingMockConsumer m = new ReplayingMockConsumer();
                m.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
                m.schedulePollTask(() -> m.rebalance(List.of(P0, P1)));
                WakeupInjectingConsumer<byte[], byte[]> c = new WakeupInjectingConsumer<>(m, Duration.ofMillis(2));
                if (method != null) {
                    c.wakeupOnCall(method, nth);
                }
                mock = m;
                consumer = c;
                return c;
            }, () -> new RecordDecoder(new StringDeserializer(), new StringDeserializer(), Map.of()),
                    commitQueue -> (item, callback) -> {
                        if (item.topicPartition().equals(P0) && item.offset() == 3 && item.attempt() == 1) {
                            failedDeliveries.incrementAndGet();
                            item.fail("failed", new IllegalStateException("the first delivery of t-0@3 fails"));
                        } else {
                            if (manual) {
                                try {
                                    new DefaultKafkaManualCommitFactory().newInstance(commitQueue.targetFor(item))
                                            .commit();
                                } catch (RuntimeException e) {
                                    commitErrors.add(e);
                                    throw e;
                                }
                            }
                            successes.computeIfAbsent(item.topicPartition() + "@" + item.offset(),
                                    k -> new AtomicInteger()).incrementAndGet();
                        }
                        callback.done(true);
                        return true;
                    }, threads, new LoggingExceptionHandler(null, getClass()),
                    new ConfiguredPollExceptionStrategy(PollOnError.ERROR_HANDLER), null);
            threads.submit(task);
            String where = method == null ? "no wakeup" : "wakeup in " + method + "#" + nth;
            try {
                await(where + ": assigned", () -> task.snapshot().partitions().size() == 2);
                append(0, 10);
                await(where + ": first records", () -> successes.size() == 20);
                mock.schedulePollTask(() -> mock.rebalance(List.of(P1))); // revoke t-0
                await(where + ": revoked", () -> task.snapshot().partitions().size() == 1);
                append(10, 20);
                mock.schedulePollTask(() -> mock.rebalance(List.of(P0, P1))); // and give it back
                await(where + ": all records", () -> successes.size() == 40);
                await(where + ": committed", () -> committed(P0) == 20 && committed(P1) == 20);
            } finally {
                task.requestStop();
                assertThat(task.awaitTermination(WAIT.toMillis())).as("%s: stopped", where).isTrue();
            }
            assertThat(task.snapshot().inFlight()).as("%s: in flight", where).isZero();
            assertThat(successes.values()).as("%s: successful deliveries per record", where)
                    .allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
            assertThat(failedDeliveries.get()).as("%s: failed deliveries of t-0@3", where).isEqualTo(1);
            assertThat(commitErrors).as("%s: manual commits that failed", where).isEmpty();
            if (method != null && nth <= consumer.calls(method)) {
                assertThat(consumer.thrown()).as("%s: the wakeup was thrown", where).isNotEmpty();
            }
            return consumer.callCounts();
        }

        private TaskSettings settings() {
            return TaskSettingsBuilder.taskSettings().pollTimeoutMs(10).maxConcurrency(2).autoCommitEnable(!manual)
                    .autoCommitIntervalMs(20).revokeTimeoutMs(2000).breakOnFirstError(true).allowManualCommit(manual)
                    .build();
        }

        private void append(long from, long to) {
            for (long o = from; o < to; o++) {
                mock.append(P0, o, null, "v" + o);
                mock.append(P1, o, null, "v" + o);
            }
        }

        private long committed(TopicPartition tp) {
            OffsetAndMetadata c = mock.committed(Set.of(tp)).get(tp);
            return c == null ? -1 : c.offset();
        }

        private void await(String what, Callable<Boolean> condition) {
            Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(condition);
        }
    }
}
