package dev.kafkafetch.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The share-group baseline without Camel: {@code members} {@link KafkaShareConsumer}s of one share group, each a poll
 * loop handing every record of a poll to a pool of {@code threads} workers, with explicit acknowledgement. The loop
 * thread (the only one touching its consumer) acknowledges each record as its worker finishes it and polls again once
 * every record of the last poll is acknowledged, as Kafka requires; the acknowledgements ride on the next poll. Kafka's
 * own defaults otherwise ({@code max.poll.records=500}, {@code share.acquire.mode=batch_optimized}) unless
 * {@code maxPollRecords} &gt; 0, which sets {@code max.poll.records} with {@code record_limit}.
 */
final class PlainShareLoopContender implements Contender {

    private final int members;
    private final int threads;
    private final int maxPollRecords;
    private final List<KafkaShareConsumer<String, String>> consumers = new ArrayList<>();
    private final List<Thread> loops = new ArrayList<>();
    private volatile boolean running;
    private volatile long startNanos;

    PlainShareLoopContender(int members, int threads, int maxPollRecords) {
        this.members = members;
        this.threads = threads;
        this.maxPollRecords = maxPollRecords;
    }

    String label() {
        return "plain KafkaShareConsumer " + members + "x" + threads + " threads"
               + (maxPollRecords > 0 ? " max.poll.records=" + maxPollRecords : " (Kafka defaults)");
    }

    private Properties props(String bootstrap, String groupId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put("share.acknowledgement.mode", "explicit");
        if (maxPollRecords > 0) {
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
            p.put("share.acquire.mode", "record_limit");
        }
        return p;
    }

    @Override
    public void start(String bootstrap, String topic, String groupId, Work work) throws Exception {
        ShareContender.startFromEarliest(bootstrap, groupId);
        running = true;
        startNanos = System.nanoTime();
        for (int i = 0; i < members; i++) {
            KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props(bootstrap, groupId));
            consumers.add(consumer);
            Thread t = new Thread(() -> loop(consumer, topic, work), "plain-share-" + i);
            loops.add(t);
            t.start();
        }
    }

    private void loop(KafkaShareConsumer<String, String> consumer, String topic, Work work) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        BlockingQueue<ConsumerRecord<String, String>> finished = new LinkedBlockingQueue<>();
        try {
            consumer.subscribe(List.of(topic));
            while (running) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                int pending = 0;
                for (ConsumerRecord<String, String> r : records) {
                    pool.execute(() -> {
                        work.onRecord(-1, -1, null);
                        finished.add(r);
                    });
                    pending++;
                }
                for (; pending > 0; pending--) {
                    consumer.acknowledge(finished.take());
                }
            }
        } catch (WakeupException e) {
            // stop requested
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
        consumers.forEach(KafkaShareConsumer::wakeup);
        for (Thread t : loops) {
            t.join(30_000);
        }
        long took = System.nanoTime() - t0;
        consumers.clear();
        loops.clear();
        return took;
    }
}
