package dev.kafkafetch.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.StringSerializer;

/** Topics, data and consumer-group observation on the benchmark broker. */
final class KafkaSetup implements AutoCloseable {

    private final String bootstrap;
    private final Admin admin;
    private final List<String> created = new ArrayList<>();

    KafkaSetup(String bootstrap) {
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30000));
    }

    String bootstrap() {
        return bootstrap;
    }

    void createTopic(String name, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        created.add(name);
    }

    /** Deletes the topics created so far (a long-lived external broker would keep gigabytes of backlog). */
    void deleteCreatedTopics() throws Exception {
        if (!created.isEmpty()) {
            admin.deleteTopics(List.copyOf(created)).all().get(60, TimeUnit.SECONDS);
            created.clear();
        }
    }

    private Properties producerProps(boolean lowLatency) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        if (lowLatency) {
            p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        } else {
            p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
            p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
            p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        }
        return p;
    }

    /**
     * Produces {@code count} records of {@code valueSize} bytes. With {@code keys > 0} record i has key
     * {@code "key-" + (i % keys)} and Kafka's default partitioner places it; otherwise records have no key and go
     * round-robin over the partitions (exactly even).
     */
    void produce(String topic, int partitions, long count, int valueSize, int keys) throws Exception {
        produce(topic, partitions, count, valueSize, keys > 0 ? KeyDistribution.cyclic(keys) : null);
    }

    /**
     * Produces {@code count} records of {@code valueSize} bytes, record i keyed {@code keys.key(i)} and placed by
     * Kafka's default partitioner, or without keys round-robin over the partitions when {@code keys} is null.
     */
    void produce(String topic, int partitions, long count, int valueSize, KeyDistribution keys) throws Exception {
        String value = Payloads.filler(valueSize);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(false))) {
            for (long i = 0; i < count; i++) {
                ProducerRecord<String, String> rec = keys != null
                        ? new ProducerRecord<>(topic, keys.key(i), value)
                        : new ProducerRecord<>(topic, (int) (i % partitions), null, value);
                producer.send(rec, (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                if (failure.get() != null) {
                    break;
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Producing to " + topic + " failed", failure.get());
        }
    }

    /**
     * Produces {@code count} records at {@code ratePerSec}, each value carrying its send time, round-robin over the
     * partitions; returns the records produced.
     */
    long produceAtRate(String topic, int partitions, long count, int ratePerSec, int valueSize) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        long interval = 1_000_000_000L / ratePerSec;
        long sent = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(true))) {
            long next = System.nanoTime();
            for (long i = 0; i < count && failure.get() == null; i++) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                next += interval;
                producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null,
                        Payloads.timed(System.nanoTime(), valueSize)), (md, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
                sent++;
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Producing to " + topic + " failed", failure.get());
        }
        return sent;
    }

    /**
     * Waits until group {@code groupId} is stable with {@code members} members that together own all
     * {@code partitions} partitions of {@code topic} (each member at least one when there are enough partitions).
     *
     * @return {@code System.nanoTime()} when that was first observed
     */
    long awaitAssigned(String groupId, String topic, int partitions, int members, long timeoutMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String last = "no description";
        while (true) {
            ConsumerGroupDescription d = null;
            try {
                d = admin.describeConsumerGroups(List.of(groupId)).all().get(10, TimeUnit.SECONDS).get(groupId);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    throw e;
                }
                last = "group not created yet";
            }
            if (d != null) {
                Collection<MemberDescription> ms = d.members();
                int owned = 0;
                boolean everyMemberHasWork = true;
                for (MemberDescription m : ms) {
                    int mine = 0;
                    for (TopicPartition tp : m.assignment().topicPartitions()) {
                        if (tp.topic().equals(topic)) {
                            mine++;
                        }
                    }
                    owned += mine;
                    everyMemberHasWork &= mine > 0 || partitions < members;
                }
                if (d.groupState() == GroupState.STABLE && ms.size() == members && owned == partitions
                    && everyMemberHasWork) {
                    return System.nanoTime();
                }
                last = d.groupState() + ", " + ms.size() + " member(s), " + owned + " partition(s) owned";
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Group " + groupId + " not stable with " + members + " member(s) owning "
                                                + partitions + " partition(s) within " + timeoutMs + " ms (" + last
                                                + ")");
            }
            Thread.sleep(20);
        }
    }

    /**
     * The sum of {@code topic}'s last stable offsets over its {@code partitions} partitions: the records a
     * {@code read_committed} reader can see (commit markers of transactions included).
     */
    long committedEnd(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            req.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        long sum = 0;
        for (ListOffsetsResult.ListOffsetsResultInfo i : admin
                .listOffsets(req, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(10, TimeUnit.SECONDS)
                .values()) {
            sum += i.offset();
        }
        return sum;
    }

    @Override
    public void close() {
        admin.close();
    }
}
