package dev.kafkafetch.reliability;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import dev.kafkafetch.commit.OffsetMap;
import dev.kafkafetch.testinfra.KafkaTestSupport;
import dev.kafkafetch.window.FinishedOffsets;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How many records an in-process route finished that its group's commits did not cover, at its worst while a fault was
 * under way: the most a loss of its partitions during that fault could route again (a committed offset never passes an
 * unfinished record, so everything below it was finished and is never re-delivered, nor is what its offset map names).
 * <p>
 * Guarantee: never below the true gap at any moment of a window. The committed offsets are read on a thread of their
 * own (they may block while a broker is away) and only lag the truth; every tick takes the finished count now against
 * the committed sum read before the previous tick, which was at most the committed sum at any moment since.
 */
final class CommitGap implements AutoCloseable {

    private static final long TICK_MS = 20;
    private static final int READ_TIMEOUT_MS = 500;

    private final KafkaTestSupport kafka;
    private final String group;
    private final String topic;
    private final IntSupplier finished;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong worst = new AtomicLong(-1);
    private final AtomicBoolean open = new AtomicBoolean();
    private volatile boolean closed;
    private final Thread reader;
    private final Thread sampler;

    CommitGap(KafkaTestSupport kafka, String group, String topic, IntSupplier finished) {
        this.kafka = kafka;
        this.group = group;
        this.topic = topic;
        this.finished = finished;
        committed.set(committedSum());
        reader = new Thread(this::read, "commit-gap-reader");
        sampler = new Thread(this::sample, "commit-gap-sampler");
        reader.setDaemon(true);
        sampler.setDaemon(true);
        reader.start();
        sampler.start();
    }

    /** Starts a window (before the fault): its worst gap so far is the gap now. */
    void startWindow() {
        worst.set(finished.getAsInt() - committed.get());
        open.set(true);
    }

    /** Ends the window (once commits succeed again after the fault) and returns its worst gap. */
    long endWindow() {
        open.set(false);
        return worst.get();
    }

    private void read() {
        while (!closed) {
            try {
                committed.set(committedSum());
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a broker is away: the last sum read stays (it only lags the truth)
            }
        }
    }

    private void sample() {
        long before = committed.get();
        while (!closed) {
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = committed.get();
            if (open.get()) {
                long gap = finished.getAsInt() - before;
                worst.accumulateAndGet(gap, Math::max);
            }
            before = now;
        }
    }

    /** The group's committed offsets on the topic, summed; a read gives up after half a second (a broker is away). */
    private long committedSum() {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = kafka.admin()
                    .listConsumerGroupOffsets(group, new ListConsumerGroupOffsetsOptions().timeoutMs(READ_TIMEOUT_MS))
                    .partitionsToOffsetAndMetadata().get(READ_TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS);
            return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                    .mapToLong(e -> covered(e.getValue())).sum();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("committed offsets of " + group + " unknown now", e);
        }
    }

    /** Records a commit covers: those below its offset, and those its offset map names as finished above it. */
    private static long covered(OffsetAndMetadata committed) {
        FinishedOffsets above = OffsetMap.decode(committed.metadata(), committed.offset());
        return committed.offset() + (above != null ? above.count() : 0);
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
        sampler.interrupt();
    }
}
