package dev.kafkafetch.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the dead-letter topic from the beginning while the combination runs (a consumer without a group, on a thread
 * of its own), so that the run knows which records are safely dead-lettered, and the checker gets every dead letter
 * with its provenance headers ({@code kafka-fetch.dlt.original-partition/-offset/reason}).
 */
final class SoakDeadLetters implements AutoCloseable {

    /** One dead letter: where the original record was (-1 when a provenance header is missing) and why. */
    record DeadLetter(int partition, long offset, String reason) {
    }

    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<DeadLetter> letters = new CopyOnWriteArrayList<>();
    private final Map<Integer, Long> positions = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    SoakDeadLetters(String bootstrap, String topic, int partitions) {
        this.topic = topic;
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.CLIENT_ID_CONFIG, "soak-dlt-reader-" + topic,
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        thread = new Thread(this::loop, "soak-dlt-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    letters.add(new DeadLetter(intHeader(r, KafkaFetchConstants.DLT_ORIGINAL_PARTITION),
                            longHeader(r, KafkaFetchConstants.DLT_ORIGINAL_OFFSET),
                            header(r, KafkaFetchConstants.DLT_REASON)));
                    positions.merge(r.partition(), r.offset() + 1, Math::max);
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                System.err.println("dead-letter reader of " + topic + " failed: " + e);
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    List<DeadLetter> all() {
        return List.copyOf(letters);
    }

    /** Waits until every record below {@code end} (the topic's end offsets) has been read. */
    boolean awaitEnd(Map<TopicPartition, Long> end, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean reached = true;
            for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                if (e.getValue() > positions.getOrDefault(e.getKey().partition(), 0L)) {
                    reached = false;
                }
            }
            if (reached) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    private static String header(ConsumerRecord<?, ?> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static int intHeader(ConsumerRecord<?, ?> r, String name) {
        try {
            return Integer.parseInt(header(r, name));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static long longHeader(ConsumerRecord<?, ?> r, String name) {
        try {
            return Long.parseLong(header(r, name));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(10_000);
    }
}
