package dev.kafkafetch.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelConsumerOptions.CommitMode;
import io.confluent.parallelconsumer.ParallelConsumerOptions.ProcessingOrder;
import io.confluent.parallelconsumer.ParallelStreamProcessor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Confluent Parallel Consumer 0.5.3.3: one KafkaConsumer, {@code maxConcurrency} worker threads, the given ordering,
 * periodic asynchronous commits. Stop = close without draining the buffered backlog (in-flight work finishes).
 */
final class ParallelConsumerContender implements Contender {

    private final int maxConcurrency;
    private final ProcessingOrder ordering;
    private ParallelStreamProcessor<String, String> pc;
    private volatile long startNanos;

    ParallelConsumerContender(int maxConcurrency, String ordering) {
        this.maxConcurrency = maxConcurrency;
        this.ordering = ProcessingOrder.valueOf(ordering.toUpperCase(Locale.ROOT));
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) {
        Properties props = PlainLoopContender.consumerProps(bootstrap, groupId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        boolean ids = work.needsIds();
        boolean value = work.needsValue();
        boolean headers = work.readsHeaders();
        startNanos = System.nanoTime();
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
        ParallelConsumerOptions<String, String> options = ParallelConsumerOptions.<String, String>builder()
                .consumer(consumer)
                .ordering(ordering)
                .maxConcurrency(maxConcurrency)
                .commitMode(CommitMode.PERIODIC_CONSUMER_ASYNCHRONOUS)
                .build();
        pc = ParallelStreamProcessor.createEosStreamProcessor(options);
        pc.subscribe(List.of(topic));
        pc.poll(ctx -> {
            ConsumerRecord<String, String> r = ctx.getSingleConsumerRecord();
            if (headers) {
                work.onHeaders(r.key(), r.partition());
            }
            work.onRecord(ids ? r.partition() : -1, ids ? r.offset() : -1, value ? r.value() : null);
        });
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public long stop() {
        if (pc == null) {
            return 0;
        }
        long t0 = System.nanoTime();
        pc.closeDontDrainFirst(Duration.ofSeconds(30));
        pc = null;
        return System.nanoTime() - t0;
    }
}
