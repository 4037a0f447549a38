package dev.kafkafetch.task;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@link MockConsumer} backed by a log: records {@link #append appended} stay in it, and each poll hands the mock
 * the records from the partition's current position on. So a seek back delivers again what was already polled, as a
 * broker would ({@code MockConsumer} alone forgets a record once it returned it). Pausing a partition from a
 * {@code schedulePollTask} task, after the records were handed over, is not supported.
 * <p>
 * {@link #beforeNextPoll} runs a task on the polling thread at the start of a poll, before the records of that poll
 * are collected: records it appends are returned by that same poll.
 */
final class ReplayingMockConsumer extends MockConsumer<byte[], byte[]> {

    private static final int MAX_POLL_RECORDS = 500;

    private final Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> log = new HashMap<>();
    private final Queue<Runnable> beforePoll = new ConcurrentLinkedQueue<>();

    ReplayingMockConsumer() {
        super("earliest");
    }

    /** Appends a record (String key and value) at {@code offset}; offsets must grow per partition. */
    synchronized void append(TopicPartition tp, long offset, String key, String value) {
        log.computeIfAbsent(tp, p -> new ArrayList<>()).add(new ConsumerRecord<>(tp.topic(), tp.partition(), offset,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
    }

    /** Runs {@code task} on the polling thread at the start of the next poll without a task of its own. */
    void beforeNextPoll(Runnable task) {
        beforePoll.add(task);
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        Runnable task = beforePoll.poll();
        if (task != null) {
            task.run();
        }
        feed();
        return super.poll(timeout);
    }

    /**
     * Hands the mock what the log holds from each assigned, unpaused partition's position on. Every record handed over
     * is returned by the poll that follows, so the mock never holds a record at or after a position it could be
     * sought to, and records keep their log order.
     */
    private void feed() {
        int room = MAX_POLL_RECORDS;
        for (TopicPartition tp : assignment()) {
            List<ConsumerRecord<byte[], byte[]>> records = log.get(tp);
            if (records == null || paused().contains(tp)) {
                continue;
            }
            long position = position(tp);
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.offset() >= position && room > 0) {
                    addRecord(r);
                    room--;
                }
            }
        }
    }
}
