package dev.kafkafetch.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a transacted combination's output topic as a downstream {@code read_committed} reader would: from the
 * beginning to the topic's end (its high watermark: every transaction left there is decided once the members stopped,
 * a killed member's open one aborted by its successor in the same slot), counting the outputs of each record number.
 */
final class SoakTxOutput {

    /**
     * @param counts     outputs per record number (the route writes the number as text)
     * @param unreadable outputs whose value is not a number
     * @param reachedEnd whether the reader's position reached the end of every partition before the timeout (else an
     *                   undecided transaction held it back)
     * @param behind     where it did not: partition, position and end
     */
    record Read(Map<Integer, Integer> counts, int unreadable, boolean reachedEnd, String behind) {

        int outputs() {
            return counts.values().stream().mapToInt(Integer::intValue).sum() + unreadable;
        }
    }

    /**
     * The output against the history: {@code lost} records the route completed (an execution ended ok) that were
     * neither dead-lettered nor skipped, with no output; {@code dups} outputs beyond one per record; {@code unrouted}
     * outputs of records no execution completed. A record both completed and dead-lettered or skipped (it completed in
     * a transaction that was aborted, then failed on its re-delivery) may have one output or none.
     */
    record Check(int lost, long dups, int unrouted, String examples) {

        boolean passed() {
            return lost == 0 && dups == 0 && unrouted == 0;
        }
    }

    static Check check(Read read, SoakOutcomes out, Map<Integer, IdProducer.Position> produced) {
        int lost = 0;
        long dups = 0;
        int unrouted = 0;
        StringBuilder examples = new StringBuilder();
        for (Map.Entry<Integer, IdProducer.Position> e : produced.entrySet()) {
            int n = e.getKey();
            int c = read.counts().getOrDefault(n, 0);
            boolean completed = out.ok.getOrDefault(n, 0) > 0;
            boolean otherwise = out.dead.containsKey(n) || out.skipped.contains(n);
            String problem = null;
            if (c > 1) {
                dups += c - 1;
                problem = "dup" + c;
            } else if (c == 0 && completed && !otherwise) {
                lost++;
                problem = "lost";
            } else if (c > 0 && !completed) {
                unrouted++;
                problem = "unrouted";
            }
            if (problem != null && examples.length() < 600) {
                examples.append(' ').append(n).append(' ').append(e.getValue()).append(' ').append(problem)
                        .append(" ok").append(out.ok.getOrDefault(n, 0)).append(" dlt")
                        .append(out.dead.getOrDefault(n, 0)).append(out.skipped.contains(n) ? " skipped" : "")
                        .append(';');
            }
        }
        return new Check(lost, dups, unrouted, examples.toString());
    }

    private SoakTxOutput() {
    }

    static Read read(String bootstrap, String topic, Map<TopicPartition, Long> end, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Map<Integer, Integer> counts = new HashMap<>();
        int unreadable = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = List.copyOf(end.keySet());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    try {
                        counts.merge(Integer.parseInt(new String(r.value(), StandardCharsets.UTF_8)), 1,
                                Integer::sum);
                    } catch (RuntimeException e) {
                        unreadable++;
                    }
                }
                StringBuilder behind = new StringBuilder();
                for (TopicPartition tp : partitions) {
                    long position = consumer.position(tp);
                    if (position < end.get(tp)) {
                        behind.append(tp.partition()).append(':').append(position).append('/').append(end.get(tp))
                                .append(' ');
                    }
                }
                if (behind.isEmpty() || System.nanoTime() > deadline) {
                    return new Read(counts, unreadable, behind.isEmpty(), behind.toString().trim());
                }
            }
        }
    }
}
