package dev.kafkafetch.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.kafkafetch.KafkaFetchConstants;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads letters from the beginning while the combination runs (a consumer without a group, on a thread of its own,
 * read_committed):
 * the dead-letter topic, so that the run knows which records are safely dead-lettered and the checker gets every dead
 * letter with its provenance headers ({@code kafka-fetch.dlt.original-partition/-offset/reason}); or the retry topics
 * ({@code retryDelays}), so that the checker knows where each retried record waits
 * ({@code kafka-fetch.retry.original-partition/-offset/attempt}). The component creates the retry topics when a route
 * starts: the reader waits until they exist and never creates a topic itself.
 */
final class SoakDeadLetters implements AutoCloseable {

    /**
     * One letter: where the original record was produced (-1 when a provenance header is missing), why (a dead letter's
     * reason, or {@code attempt<n>} for a retry letter), and where the letter itself is.
     */
    record DeadLetter(int partition, long offset, String reason, String topic, int letterPartition,
            long letterOffset) {
    }

    private final String name;
    private final boolean retryLetters;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<DeadLetter> letters = new CopyOnWriteArrayList<>();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /** Reads the dead-letter topic. */
    SoakDeadLetters(String bootstrap, String topic, int partitions) {
        this(bootstrap, null, List.of(topic), partitions, false);
    }

    /**
     * @param admin        with retry letters: to wait until the topics exist (the component creates them)
     * @param retryLetters read retry letters (their provenance headers) rather than dead letters
     */
    SoakDeadLetters(String bootstrap, Admin admin, List<String> topics, int partitions, boolean retryLetters) {
        this.name = String.join(",", topics);
        this.retryLetters = retryLetters;
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.CLIENT_ID_CONFIG, "soak-letter-reader-" + topics.get(0),
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false,
                // a transacted route's dead letters are in the transaction of their record's offset: an aborted
                // one never counts (plain letters are not transactional, so they are seen at once either way)
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> tps = new ArrayList<>();
        for (String topic : topics) {
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
        }
        thread = new Thread(() -> {
            if (admin == null || awaitTopics(admin, topics)) {
                consumer.assign(tps);
                consumer.seekToBeginning(tps);
                loop();
            } else {
                consumer.close(Duration.ofSeconds(5));
            }
        }, "soak-letter-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private boolean awaitTopics(Admin admin, List<String> topics) {
        while (running) {
            try {
                if (admin.listTopics().names().get(10, TimeUnit.SECONDS).containsAll(topics)) {
                    return true;
                }
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return false;
            } catch (Exception e) {
                // the cluster is busy (a broker restart): ask again
            }
        }
        return false;
    }

    private void loop() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    letters.add(retryLetters
                            ? new DeadLetter(intHeader(r, KafkaFetchConstants.RETRY_ORIGINAL_PARTITION),
                                    longHeader(r, KafkaFetchConstants.RETRY_ORIGINAL_OFFSET),
                                    "attempt" + header(r, KafkaFetchConstants.RETRY_ATTEMPT), r.topic(), r.partition(),
                                    r.offset())
                            : new DeadLetter(intHeader(r, KafkaFetchConstants.DLT_ORIGINAL_PARTITION),
                                    longHeader(r, KafkaFetchConstants.DLT_ORIGINAL_OFFSET),
                                    header(r, KafkaFetchConstants.DLT_REASON), r.topic(), r.partition(), r.offset()));
                    positions.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max);
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                System.err.println("letter reader of " + name + " failed: " + e);
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    List<DeadLetter> all() {
        return List.copyOf(letters);
    }

    /** Waits until every record below {@code end} (the topics' end offsets) has been read. */
    boolean awaitEnd(Map<TopicPartition, Long> end, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean reached = true;
            for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
                if (e.getValue() > positions.getOrDefault(e.getKey(), 0L)) {
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
        thread.join(15_000);
    }
}
