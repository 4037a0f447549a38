package dev.kafkafetch.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produces records with unique ids, as a backlog or continuously at a fixed rate from a background thread, with an
 * idempotent {@code acks=all} producer that keeps retrying through broker outages (delivery timeout 2 minutes).
 * <p>
 * Only acknowledged records count as produced: {@link #acked()} maps each id to the partition and offset the broker
 * gave it (used to name lost records precisely and to map dead letters back to ids). Sends that fail for good are
 * counted in {@link #failed()} (their record may or may not be in the topic). Thread-safe.
 */
final class IdProducer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IdProducer.class);

    /** Where the broker put a record. */
    record Position(int partition, long offset) {
        @Override
        public String toString() {
            return partition + "@" + offset;
        }
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final String prefix;
    private final int keys;
    private final Map<String, Position> acked = new ConcurrentHashMap<>();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong next = new AtomicLong();
    private volatile boolean running;
    private Thread thread;

    IdProducer(String bootstrapServers, String topic, String prefix, int keys) {
        this.topic = topic;
        this.prefix = prefix;
        this.keys = keys;
        Map<String, Object> conf = new HashMap<>();
        conf.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        conf.put(ProducerConfig.ACKS_CONFIG, "all");
        conf.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        conf.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // one request in flight: right after topic creation a retried first batch (NOT_LEADER) would otherwise be
        // refused with OutOfOrderSequenceException behind later batches and expire after the delivery timeout
        conf.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        conf.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        conf.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        conf.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        conf.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        conf.put(ProducerConfig.CLIENT_ID_CONFIG, "reliability-producer-" + prefix);
        producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The id of record number n: {@code id-<prefix>-<n>}. */
    String id(long n) {
        return "id-" + prefix + "-" + n;
    }

    /** The key of record number n: {@code k<n % keys>}. */
    String key(long n) {
        return "k" + (n % keys);
    }

    /** Sends the next id-valued record (String key and value). */
    String sendNext() {
        long n = next.getAndIncrement();
        String id = id(n);
        send(id, null, key(n).getBytes(StandardCharsets.UTF_8), id.getBytes(StandardCharsets.UTF_8));
        return id;
    }

    /** Sends one record under the given id (the id need not be the value: poison records carry raw bytes). */
    void send(String id, Integer partition, byte[] key, byte[] value) {
        pending.incrementAndGet();
        try {
            producer.send(new ProducerRecord<>(topic, partition, key, value), (metadata, error) -> {
                if (error == null) {
                    acked.put(id, new Position(metadata.partition(), metadata.offset()));
                } else {
                    failed.incrementAndGet();
                    LOG.warn("Send of {} failed for good: {}", id, error.toString());
                }
                pending.decrementAndGet();
            });
        } catch (RuntimeException e) {
            pending.decrementAndGet();
            failed.incrementAndGet();
            LOG.warn("Send of {} refused: {}", id, e.toString());
        }
    }

    /** Sends {@code count} id-valued records and waits until every one is acknowledged (or failed). */
    void backlog(int count) {
        for (int i = 0; i < count; i++) {
            sendNext();
        }
        awaitAcks(Duration.ofSeconds(60));
    }

    /** Starts producing {@code perSecond} id-valued records a second until {@link #stop()}. */
    synchronized void startContinuous(int perSecond) {
        if (thread != null) {
            throw new IllegalStateException("already producing");
        }
        running = true;
        thread = new Thread(() -> {
            long t0 = System.nanoTime();
            long sent = 0;
            while (running) {
                long due = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) * perSecond / 1000;
                while (sent < due && running) {
                    sendNext();
                    sent++;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "reliability-producer-" + prefix);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the continuous production and waits until every record sent is acknowledged (or failed). */
    synchronized void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(70_000);
            thread = null;
        }
        awaitAcks(Duration.ofSeconds(150));
    }

    private void awaitAcks(Duration timeout) {
        producer.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (pending.get() > 0) {
            throw new IllegalStateException(pending.get() + " sends to " + topic + " neither acknowledged nor failed");
        }
    }

    /** Acknowledged ids and where they are; a copy. */
    Map<String, Position> acked() {
        return new HashMap<>(acked);
    }

    int ackedCount() {
        return acked.size();
    }

    int failed() {
        return failed.get();
    }

    @Override
    public void close() {
        running = false;
        producer.close(Duration.ofSeconds(10));
    }
}
