package dev.kafkafetch.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The baseline: {@code n} threads, each with its own KafkaConsumer, {@code poll()} then process each record in the
 * poll thread. Kafka's default auto-commit (every 5 s) and {@code max.poll.records=500}; stop is a
 * {@code wakeup()}.
 */
final class PlainLoopContender implements Contender {

    private final int threads;
    private final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
    private final List<Thread> loops = new ArrayList<>();
    private volatile boolean running;
    private volatile long startNanos;

    PlainLoopContender(int threads) {
        this.threads = threads;
    }

    static Properties consumerProps(String bootstrap, String groupId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return p;
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) {
        running = true;
        startNanos = System.nanoTime();
        boolean ids = work.needsIds();
        boolean value = work.needsValue();
        boolean headers = work.readsHeaders();
        for (int i = 0; i < threads; i++) {
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(bootstrap, groupId));
            consumers.add(consumer);
            Thread t = new Thread(() -> {
                try {
                    consumer.subscribe(List.of(topic));
                    while (running) {
                        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(1000));
                        for (ConsumerRecord<String, String> r : records) {
                            if (headers) {
                                work.onHeaders(r.key(), r.partition());
                            }
                            work.onRecord(ids ? r.partition() : -1, ids ? r.offset() : -1, value ? r.value() : null);
                        }
                    }
                } catch (WakeupException e) {
                    // stop requested
                } finally {
                    consumer.close(Duration.ofSeconds(10));
                }
            }, "plain-loop-" + i);
            loops.add(t);
            t.start();
        }
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public long stop() throws InterruptedException {
        long t0 = System.nanoTime();
        running = false;
        consumers.forEach(KafkaConsumer::wakeup);
        for (Thread t : loops) {
            t.join(30_000);
        }
        long took = System.nanoTime() - t0;
        consumers.clear();
        loops.clear();
        return took;
    }
}
