package dev.kafkafetch.it.tx;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.kafkafetch.testinfra.KafkaTestSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a {@code read_committed} reader of an output topic sees, compared with the ids produced to the input: ids
 * never seen (lost) and ids seen more than once (duplicates, counted once per extra copy).
 */
record OutputCheck(int read, Set<String> lost, int duplicates, Map<String, Integer> counts) {

    static OutputCheck readCommitted(String bootstrapServers, String topic, List<String> produced) {
        try (KafkaTestSupport reader = new KafkaTestSupport(bootstrapServers,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            List<ConsumerRecord<String, String>> records = reader.readAll(topic, Duration.ofSeconds(30));
            Map<String, Integer> counts = new HashMap<>();
            for (ConsumerRecord<String, String> r : records) {
                counts.merge(r.value(), 1, Integer::sum);
            }
            Set<String> lost = new HashSet<>(produced);
            lost.removeAll(counts.keySet());
            int duplicates = counts.values().stream().mapToInt(c -> c - 1).sum();
            return new OutputCheck(records.size(), lost, duplicates, counts);
        }
    }

    @Override
    public String toString() {
        return "read=" + read + " lost=" + lost.size() + " duplicates=" + duplicates;
    }
}
