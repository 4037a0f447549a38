package dev.kafkafetch.task;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.kafkafetch.dispatch.ItemProcessor;
import dev.kafkafetch.error.ConfiguredPollExceptionStrategy;
import dev.kafkafetch.error.PollOnError;
import dev.kafkafetch.serde.RecordDecoder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fetch loop's state machine on Kafka's MockConsumer (no delivery claims here: those are proven on a real
 * broker). Every interaction with the mock is scheduled into its poll, so only the fetch thread touches it.
 */
class KafkaFetchRecordsTest {

    private final TopicPartition tp = new TopicPartition("t", 0);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Set<Long> processed = ConcurrentHashMap.newKeySet();
    private final AtomicInteger created = new AtomicInteger();
    private volatile MockConsumer<byte[], byte[]> mock;

    @AfterEach
    void close() {
        threads.shutdownNow();
    }

    private TaskSettings settings() {
        return TaskSettingsBuilder.taskSettings().build();
    }

    private KafkaFetchRecords start(PollOnError onError) {
        ItemProcessor processor = (item, callback) -> {
            processed.add(item.offset());
            callback.done(true);
            return true;
        };
        KafkaFetchRecords task = new KafkaFetchRecords(settings(), "test-task", props -> {
            created.incrementAndGet();
            MockConsumer<byte[], byte[]> m = new MockConsumer<>("earliest");
            m.updateBeginningOffsets(Map.of(tp, 0L));
            m.schedulePollTask(() -> m.rebalance(List.of(tp)));
            mock = m;
            return m;
        }, () -> new RecordDecoder(new StringDeserializer(), new StringDeserializer(), Map.of()),
                commitQueue -> processor, threads,
                new org.apache.camel.support.LoggingExceptionHandler(null, getClass()),
                new ConfiguredPollExceptionStrategy(onError),
                null);
        threads.submit(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> task.snapshot().partitions().size() == 1);
        return task;
    }

    private void addRecords(long from, long to) {
        MockConsumer<byte[], byte[]> m = mock;
        m.schedulePollTask(() -> {
            for (long o = from; o < to; o++) {
                m.addRecord(new ConsumerRecord<>("t", 0, o, null, ("v" + o).getBytes()));
            }
        });
    }

    @Test
    void pauseStopsDeliveryKeepsPollingAndResumeDeliversWhatCameMeanwhile() throws Exception {
        KafkaFetchRecords task = start(PollOnError.ERROR_HANDLER);
        addRecords(0, 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 10);

        task.requestPause();
        await().atMost(Duration.ofSeconds(10)).until(() -> task.state() == TaskState.PAUSED);
        assertThat(task.snapshot().partitions().get(0).pausedReason()).isEqualTo("user");
        long polls = task.snapshot().polls();
        addRecords(10, 20);
        await().atMost(Duration.ofSeconds(10)).until(() -> task.snapshot().polls() > polls + 3);
        assertThat(processed).hasSize(10);

        task.requestResume();
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 20);
        assertThat(task.state()).isEqualTo(TaskState.RUNNING);
        task.requestStop();
        assertThat(task.awaitTermination(10_000)).isTrue();
        assertThat(task.state()).isEqualTo(TaskState.TERMINATED);
    }

    @Test
    void stopOnPollErrorTerminatesTheTask() throws Exception {
        KafkaFetchRecords task = start(PollOnError.STOP);
        MockConsumer<byte[], byte[]> m = mock;
        m.schedulePollTask(() -> m.setPollException(new KafkaException("boom")));
        assertThat(task.awaitTermination(10_000)).isTrue();
        assertThat(task.state()).isEqualTo(TaskState.TERMINATED);
        assertThat(task.snapshot().lastError()).contains("boom");
    }

    @Test
    void reconnectOnPollErrorCreatesANewConsumer() throws Exception {
        KafkaFetchRecords task = start(PollOnError.RECONNECT);
        MockConsumer<byte[], byte[]> m = mock;
        m.schedulePollTask(() -> m.setPollException(new KafkaException("boom")));
        await().atMost(Duration.ofSeconds(10)).until(() -> created.get() == 2
                                                           && task.snapshot().reconnects() == 1
                                                           && task.state() == TaskState.RUNNING);
        addRecords(0, 5);
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 5);
        task.requestStop();
        assertThat(task.awaitTermination(10_000)).isTrue();
    }

    @Test
    void errorHandlerGoesOnPolling() throws Exception {
        KafkaFetchRecords task = start(PollOnError.ERROR_HANDLER);
        MockConsumer<byte[], byte[]> m = mock;
        m.schedulePollTask(() -> m.setPollException(new KafkaException("once")));
        await().atMost(Duration.ofSeconds(10)).until(() -> task.snapshot().lastError() != null);
        addRecords(0, 5);
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 5);
        assertThat(task.state()).isEqualTo(TaskState.RUNNING);
        assertThat(created.get()).isEqualTo(1);
        task.requestStop();
        assertThat(task.awaitTermination(10_000)).isTrue();
    }
}
