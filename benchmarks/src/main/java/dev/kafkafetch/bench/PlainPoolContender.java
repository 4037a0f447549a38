package dev.kafkafetch.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The hand-written alternative for slow I/O: one KafkaConsumer whose poll thread hands every record to a fixed pool of
 * {@code n} threads, at most {@code n} records at once (the poll thread waits for a free one). Kafka's auto-commit,
 * so it commits records still running: a speed reference, not a safe consumer.
 */
final class PlainPoolContender implements Contender {

    private final int threads;
    private KafkaConsumer<String, String> consumer;
    private ExecutorService pool;
    private Thread loop;
    private volatile boolean running;
    private volatile long startNanos;

    PlainPoolContender(int threads) {
        this.threads = threads;
    }

    static String label(int n) {
        return "plain consumer + " + n + "-thread pool";
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) {
        running = true;
        startNanos = System.nanoTime();
        consumer = new KafkaConsumer<>(PlainLoopContender.consumerProps(bootstrap, groupId));
        pool = Executors.newFixedThreadPool(threads);
        Semaphore slots = new Semaphore(threads);
        KafkaConsumer<String, String> c = consumer;
        loop = new Thread(() -> {
            try {
                c.subscribe(List.of(topic));
                while (running) {
                    ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(1000));
                    for (ConsumerRecord<String, String> r : records) {
                        slots.acquire();
                        pool.execute(() -> {
                            try {
                                work.onRecord(r.partition(), r.offset(), null);
                            } finally {
                                slots.release();
                            }
                        });
                    }
                }
            } catch (WakeupException | InterruptedException e) {
                // stop requested
            } finally {
                c.close(Duration.ofSeconds(10));
            }
        }, "plain-pool-poll");
        loop.start();
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public long stop() throws InterruptedException {
        long t0 = System.nanoTime();
        running = false;
        consumer.wakeup();
        loop.interrupt();
        loop.join(30_000);
        pool.shutdownNow();
        pool.awaitTermination(30, TimeUnit.SECONDS);
        return System.nanoTime() - t0;
    }
}
