package dev.kafkafetch.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's own consume-transform-produce loop: {@code n} threads, each with a KafkaConsumer and a KafkaProducer;
 * every record of a poll goes to {@link Work} in the poll thread, then its id ({@code partition-offset}) is sent to the
 * output topic with the input's key.
 * <ul>
 * <li>transactional: Kafka's standard exactly-once loop, one transaction per poll: {@code beginTransaction}, the
 * sends, {@code sendOffsetsToTransaction(next offsets, consumer.groupMetadata())}, {@code commitTransaction}
 * (auto-commit off; {@code transactional.id} unique per thread and run);</li>
 * <li>plain: at least once, {@code producer.flush()} after each poll's sends, offsets auto-committed (every 5 s) by a
 * later poll.</li>
 * </ul>
 * Producer options are the client's defaults. Stop sets a flag checked before each record and wakes the consumer; a
 * transaction interrupted by the stop is aborted.
 */
final class PlainPipelineContender implements Contender {

    private final int threads;
    private final boolean transactional;
    private final String outTopic;
    private final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
    private final List<Thread> loops = new ArrayList<>();
    private volatile boolean running;
    private volatile long startNanos;

    PlainPipelineContender(int threads, boolean transactional, String outTopic) {
        this.threads = threads;
        this.transactional = transactional;
        this.outTopic = outTopic;
    }

    private Properties producerProps(String bootstrap, String transactionalId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        if (transactional) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return p;
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) {
        running = true;
        startNanos = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Properties cp = PlainLoopContender.consumerProps(bootstrap, groupId);
            if (transactional) {
                cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
                cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            }
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp);
            KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(bootstrap, groupId + "-" + i));
            consumers.add(consumer);
            Thread t = new Thread(() -> loop(consumer, producer, topic, work), "plain-pipeline-" + i);
            loops.add(t);
            t.start();
        }
    }

    private void loop(KafkaConsumer<String, String> consumer, KafkaProducer<String, String> producer, String topic,
                      Work work) {
        boolean open = false;
        try {
            if (transactional) {
                producer.initTransactions();
            }
            consumer.subscribe(List.of(topic));
            while (running) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(1000));
                if (records.isEmpty()) {
                    continue;
                }
                if (transactional) {
                    producer.beginTransaction();
                    open = true;
                }
                Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
                boolean complete = true;
                for (ConsumerRecord<String, String> r : records) {
                    if (!running) {
                        complete = false;
                        break;
                    }
                    work.onRecord(r.partition(), r.offset(), null);
                    producer.send(new ProducerRecord<>(outTopic, r.key(), r.partition() + "-" + r.offset()));
                    next.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                if (!transactional) {
                    producer.flush();
                } else if (complete) {
                    producer.sendOffsetsToTransaction(next, consumer.groupMetadata());
                    producer.commitTransaction();
                    open = false;
                }
            }
        } catch (WakeupException e) {
            // stop requested
        } finally {
            if (open) {
                producer.abortTransaction();
            }
            producer.close(Duration.ofSeconds(10));
            consumer.close(Duration.ofSeconds(10));
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
