package dev.kafkafetch.deadletter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic once, from the beginning of each partition to the end it had when the scan began, with a
 * short-lived consumer of its own (assigned, no group, nothing committed): never a fetch task's consumer.
 */
final class TopicScan {

    private TopicScan() {
    }

    /**
     * Hands every record to {@code each} until it answers false or the end is reached.
     *
     * @param readCommitted read only committed records (isolation.level=read_committed)
     * @throws IllegalStateException when the topic does not exist or the end is not reached within the timeout
     */
    static void scan(Function<Properties, Consumer<byte[], byte[]>> consumers, Properties clientProperties,
                     String topic, boolean readCommitted, Duration timeout,
                     Predicate<ConsumerRecord<byte[], byte[]>> each) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (Consumer<byte[], byte[]> consumer = consumers.apply(p)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("Topic " + topic + " does not exist");
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            while (!reached(consumer, end, timeout)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("Could not read " + topic + " to its end within "
                                                    + timeout.toMillis() + " ms");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition())) && !each.test(r)) {
                        return;
                    }
                }
            }
        }
    }

    private static boolean reached(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end,
                                   Duration timeout) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
