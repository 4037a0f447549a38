package dev.kafkafetch.error;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.kafkafetch.dispatch.WorkItem;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the letters of records the route could not finish (dead letters, retry letters), each as itself: what
 * {@link Letters} built from it.
 * <p>
 * Guarantees: {@link #publish} never blocks its caller: sends happen on the publisher's own thread, the only one that
 * may wait for a topic's metadata (up to {@code max.block.ms}), so neither a fetch thread nor a worker ever does
 * (docs/design.md §3). {@link Callback#acked} runs only once the broker acknowledged every letter of the call
 * (acks=all, idempotent producer); until then the records stay unfinished and nothing is committed past them. A failed
 * send is retried with a growing backoff until acknowledged or closed; one the broker rejects for good (not retriable,
 * e.g. record too large or not authorized), or that failed {@value #TROUBLE_AFTER} times, is reported through
 * {@link Callback#troubled} (and {@link Callback#recovered} once it went through). Thread-safe.
 */
public final class LetterPublisher implements AutoCloseable {

    /** What the caller learns about the letters of one {@link #publish} call. */
    public interface Callback {
        /** Every letter of the call is acknowledged by the broker. */
        void acked();

        /** A letter keeps failing (it is still retried); called once per letter that gets into trouble. */
        void troubled(WorkItem record, String topic, Exception error);

        /** A record that was in trouble got acknowledged after all. */
        void recovered(WorkItem record);
    }

    static final int TROUBLE_AFTER = 3;
    private static final Logger LOG = LoggerFactory.getLogger(LetterPublisher.class);
    private static final long FIRST_BACKOFF_MS = 500;
    private static final long MAX_BACKOFF_MS = 30_000;

    private final Producer<byte[], byte[]> producer;
    private final ScheduledExecutorService sender;
    private volatile boolean closed;

    /**
     * @param producerFactory creates the producer (the route's kafkaClientFactory)
     * @param sender          a single thread of the consumer's, on which every send happens
     */
    public LetterPublisher(Properties clientProperties, Function<Properties, Producer<byte[], byte[]>> producerFactory,
                           ScheduledExecutorService sender) {
        this.sender = sender;
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = producerFactory.apply(props);
    }

    /**
     * Sends each record's letter (built by {@code letterOf} on the calling thread); returns at once.
     * {@code callback.acked()} runs once the broker acknowledged all of them.
     */
    public void publish(List<WorkItem> records, Function<WorkItem, ProducerRecord<byte[], byte[]>> letterOf,
                        Callback callback) {
        AtomicInteger left = new AtomicInteger(records.size());
        for (WorkItem record : records) {
            schedule(new Letter(record, letterOf.apply(record), callback, left), 0);
        }
    }

    private final class Letter {
        final WorkItem item;
        final ProducerRecord<byte[], byte[]> record;
        final Callback callback;
        final AtomicInteger left;
        int failures;
        boolean troubled;

        Letter(WorkItem item, ProducerRecord<byte[], byte[]> record, Callback callback, AtomicInteger left) {
            this.item = item;
            this.record = record;
            this.callback = callback;
            this.left = left;
        }
    }

    private void schedule(Letter letter, long delayMs) {
        try {
            sender.schedule(() -> send(letter), delayMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            abandon(letter);
        }
    }

    /** On the sender thread: the only place where a send may block. */
    private void send(Letter letter) {
        if (closed) {
            abandon(letter);
            return;
        }
        try {
            producer.send(letter.record, (metadata, error) -> {
                if (error == null) {
                    acked(letter, metadata.partition(), metadata.offset());
                } else {
                    failed(letter, error);
                }
            });
        } catch (RuntimeException e) {
            failed(letter, e);
        }
    }

    private void acked(Letter letter, int partition, long offset) {
        LOG.info("Record {} sent to {}-{}@{}", letter.item, letter.record.topic(), partition, offset);
        if (letter.troubled) {
            letter.callback.recovered(letter.item);
        }
        if (letter.left.decrementAndGet() == 0) {
            letter.callback.acked();
        }
    }

    private void failed(Letter letter, Exception error) {
        letter.failures++;
        boolean forGood = !(error instanceof RetriableException);
        long backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(letter.failures - 1, 10));
        LOG.warn("The letter of {} to {} is not acknowledged ({}{}); retrying in {} ms", letter.item,
                letter.record.topic(),
                error.toString(), forGood ? ", not retriable" : "", backoff);
        if (!letter.troubled && (forGood || letter.failures >= TROUBLE_AFTER)) {
            letter.troubled = true;
            letter.callback.troubled(letter.item, letter.record.topic(), error);
        }
        schedule(letter, backoff);
    }

    private void abandon(Letter letter) {
        LOG.warn("Dead letter for {} abandoned: the consumer is stopping; the record will be re-delivered",
                letter.item);
    }

    @Override
    public void close() {
        closed = true;
        producer.close(Duration.ofSeconds(5));
    }
}
