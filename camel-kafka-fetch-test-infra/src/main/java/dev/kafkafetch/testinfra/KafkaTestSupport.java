package dev.kafkafetch.testinfra;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Blocking helpers for tests that talk to a Kafka cluster through an {@link Admin} client and a producer.
 * <p>
 * Guarantees: every method returns only once the operation is complete on the broker (records acknowledged with
 * {@code acks=all} by an idempotent producer, topics created with a leader for every partition) or throws an
 * {@link IllegalStateException} naming what failed, after a bounded time ({@value #DEFAULT_TIMEOUT_SECONDS} s unless
 * stated otherwise). The admin client and the producer are created lazily and closed by {@link #close()}.
 * Thread-safe.
 */
public final class KafkaTestSupport implements AutoCloseable {

    static final long DEFAULT_TIMEOUT_SECONDS = 30;
    private static final Duration TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
    private static final AtomicLong COUNTER = new AtomicLong();

    private final String bootstrapServers;
    private final Map<String, Object> clientProperties;
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private boolean closed;

    /** @param bootstrapServers the cluster to talk to (PLAINTEXT, no authentication) */
    public KafkaTestSupport(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /**
     * @param bootstrapServers the cluster to talk to
     * @param clientProperties extra client settings (e.g. {@code security.protocol}, {@code sasl.*}, {@code ssl.*})
     *                         given to the admin client, the producer and the reader consumer; they override this
     *                         helper's own settings
     */
    public KafkaTestSupport(String bootstrapServers, Map<String, ?> clientProperties) {
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        this.clientProperties = Map.copyOf(Objects.requireNonNull(clientProperties, "clientProperties"));
    }

    /** A helper for {@code service}, with its {@link KafkaService#clientProperties() client properties}. */
    public KafkaTestSupport(KafkaService service) {
        this(service.bootstrapServers(), service.clientProperties());
    }

    /** The cluster this helper talks to. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * {@code prefix + "-" + suffix} where the suffix is a JVM-wide counter plus random hex, so names are unique
     * across tests and runs against the same broker; characters not allowed in topic names are replaced by {@code -}.
     */
    public static String uniqueName(String prefix) {
        String p = prefix == null || prefix.isEmpty() ? "t" : prefix.replaceAll("[^a-zA-Z0-9._-]", "-");
        if (p.length() > 200) {
            p = p.substring(0, 200);
        }
        return p + "-" + COUNTER.incrementAndGet()
               + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff));
    }

    /** Creates a topic with replication factor 1. */
    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, 1);
    }

    /** Creates a topic and waits until every partition has a leader; fails if it already exists. */
    public void createTopic(String topic, int partitions, int replicationFactor) {
        NewTopic newTopic = new NewTopic(topic, partitions, (short) replicationFactor);
        await("create topic " + topic, admin().createTopics(List.of(newTopic)).all());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String problem;
        while (true) {
            try {
                TopicDescription d = admin().describeTopics(List.of(topic)).allTopicNames().get(5, TimeUnit.SECONDS)
                        .get(topic);
                long withLeader = d.partitions().stream().filter(p -> p.leader() != null && !p.leader().isEmpty())
                        .count();
                if (d.partitions().size() == partitions && withLeader == partitions
                    && producer().partitionsFor(topic).stream().allMatch(p -> p.leader() != null)) {
                    return;
                }
                problem = withLeader + "/" + partitions + " partitions have a leader";
            } catch (ExecutionException | TimeoutException e) {
                problem = String.valueOf(e.getCause() != null ? e.getCause() : e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for topic " + topic, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Topic " + topic + " not ready within " + TIMEOUT + ": " + problem);
            }
            sleep(50);
        }
    }

    /**
     * Produces {@code count} records with String values {@code "id-<prefix>-<n>"} (n = 0..count-1) and String keys
     * {@code "k" + (n % keys)}, partitioned by the default partitioner; returns the ids in produce order.
     */
    public List<String> produceIds(String topic, int count, String prefix, int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be >= 1, was " + keys);
        }
        List<String> ids = new ArrayList<>(count);
        List<Future<RecordMetadata>> sends = new ArrayList<>(count);
        KafkaProducer<byte[], byte[]> p = producer();
        for (int n = 0; n < count; n++) {
            String id = "id-" + prefix + "-" + n;
            ids.add(id);
            sends.add(p.send(new ProducerRecord<>(topic, bytes("k" + (n % keys)), bytes(id))));
        }
        p.flush();
        for (Future<RecordMetadata> f : sends) {
            await("produce to " + topic, f);
        }
        return ids;
    }

    /** Produces one record (partition and headers may be null) and waits for its acknowledgement. */
    public void produce(String topic, Integer partition, String key, String value, Map<String, byte[]> headers) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, bytes(key), bytes(value));
        if (headers != null) {
            headers.forEach((k, v) -> record.headers().add(new RecordHeader(k, v)));
        }
        send(record);
    }

    /** Produces one record of raw bytes (partition, key and value may be null) and waits for its acknowledgement. */
    public void produceBytes(String topic, Integer partition, byte[] key, byte[] value) {
        send(new ProducerRecord<>(topic, partition, key, value));
    }

    /** Committed offsets of {@code groupId} for the partitions of {@code topic}; partitions without a commit are absent. */
    public Map<TopicPartition, Long> committedOffsets(String groupId, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all = await("list offsets of group " + groupId,
                admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        Map<TopicPartition, Long> result = new TreeMap<>(PARTITION_ORDER);
        all.forEach((tp, om) -> {
            if (om != null && tp.topic().equals(topic)) {
                result.put(tp, om.offset());
            }
        });
        return result;
    }

    /** Log end offsets of every partition of {@code topic}. */
    public Map<TopicPartition, Long> endOffsets(String topic) {
        List<TopicPartition> partitions = partitions(topic);
        Map<TopicPartition, OffsetSpec> request = partitions.stream()
                .collect(Collectors.toMap(Function.identity(), tp -> OffsetSpec.latest()));
        Map<TopicPartition, Long> result = new TreeMap<>(PARTITION_ORDER);
        await("end offsets of " + topic, admin().listOffsets(request).all())
                .forEach((tp, info) -> result.put(tp, info.offset()));
        return result;
    }

    /**
     * Reads every record currently in {@code topic}, from the beginning up to the end offsets taken at the start of
     * the call, with a throwaway consumer (no group, nothing committed) and String deserializers. Records of one
     * partition are in offset order. Throws if the end offsets are not reached within {@code timeout}.
     */
    public List<ConsumerRecord<String, String>> readAll(String topic, Duration timeout) {
        Map<TopicPartition, Long> end = endOffsets(topic);
        Map<String, Object> conf = new HashMap<>();
        conf.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        conf.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        conf.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        conf.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        conf.put(ConsumerConfig.CLIENT_ID_CONFIG, "kafka-test-support-reader-" + COUNTER.incrementAndGet());
        conf.putAll(clientProperties);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(conf, new StringDeserializer(),
                new StringDeserializer());
        try {
            consumer.assign(end.keySet());
            consumer.seekToBeginning(end.keySet());
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    Map<TopicPartition, Long> positions = new TreeMap<>(PARTITION_ORDER);
                    end.keySet().forEach(tp -> positions.put(tp, consumer.position(tp, Duration.ofSeconds(5))));
                    throw new IllegalStateException("readAll(" + topic + ") did not reach end offsets " + end
                                                    + " within " + timeout + "; positions " + positions + ", "
                                                    + records.size() + " records read");
                }
                ConsumerRecords<String, String> batch = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> r : batch) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        records.add(r);
                    }
                }
            }
        } finally {
            // no group, nothing to commit: a close that waits on a slow broker (30 s by default, seen once inside an
            // await) only eats the caller's time
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        }
        return records;
    }

    /** The shared admin client of this helper; do not close it (see {@link #close()}). */
    public synchronized Admin admin() {
        ensureOpen();
        if (admin == null) {
            Map<String, Object> conf = new HashMap<>();
            conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
            conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
            conf.put(AdminClientConfig.CLIENT_ID_CONFIG, "kafka-test-support-admin-" + COUNTER.incrementAndGet());
            conf.putAll(clientProperties);
            admin = Admin.create(conf);
        }
        return admin;
    }

    /** Closes the admin client and the producer; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(10));
        }
    }

    // ------------------------------------------------------------------------------------------------------

    private static final java.util.Comparator<TopicPartition> PARTITION_ORDER = java.util.Comparator
            .comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private List<TopicPartition> partitions(String topic) {
        TopicDescription d = await("describe topic " + topic, admin().describeTopics(List.of(topic)).allTopicNames())
                .get(topic);
        List<TopicPartition> result = new ArrayList<>();
        for (TopicPartitionInfo p : d.partitions()) {
            result.add(new TopicPartition(topic, p.partition()));
        }
        return result;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), Duration.ofSeconds(10)) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        ensureOpen();
        if (producer == null) {
            Map<String, Object> conf = new HashMap<>();
            conf.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            conf.put(ProducerConfig.ACKS_CONFIG, "all");
            conf.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            conf.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            // one request in flight: a retry right after topic creation (NOT_LEADER) cannot overtake later batches
            conf.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
            conf.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
            conf.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
            conf.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
            conf.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
            conf.put(ProducerConfig.CLIENT_ID_CONFIG, "kafka-test-support-producer-" + COUNTER.incrementAndGet());
            conf.putAll(clientProperties);
            producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        KafkaProducer<byte[], byte[]> p = producer();
        Future<RecordMetadata> f = p.send(record);
        p.flush();
        await("produce to " + record.topic(), f);
    }

    private synchronized void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("KafkaTestSupport is closed");
        }
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T await(String what, Future<T> future) {
        try {
            return future.get(DEFAULT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new IllegalStateException("Timed out after " + TIMEOUT + ": " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Failed to " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + what, e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

}
