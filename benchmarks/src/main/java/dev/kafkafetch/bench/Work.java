package dev.kafkafetch.bench;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a contender's "route" does with each record, and the counters of one run.
 * <p>
 * Every contender calls {@link #onRecord} once per record it hands to its processing code (the Camel route, the
 * poll-loop body, the Parallel Consumer user function). The hot path is one atomic increment; the clock is read on the
 * first record and when {@code target} records have been seen. Optional extras: a fixed sleep standing in for I/O,
 * distinct (partition, offset) tracking for the smoke test, end-to-end latency samples, and the
 * {@link RouteVariant}: a contender whose work {@link #readsHeaders()} passes the record's key and partition, read
 * through its own API, to {@link #onHeaders}; {@link RouteVariant#CPU} spins for about 5 us per record.
 */
final class Work {

    private final long target;
    private final long sleepMs;
    private final boolean trackDistinct;
    private final long[] latencies;
    private final RouteVariant route;
    private final long spinIterations;
    /** Written (racily) with what the route read, so that no JIT drops the reading. */
    private long sink;

    private final AtomicLong count = new AtomicLong();
    /** How long the sleeps took in all: on a loaded machine a thread wakes later than asked. */
    private final LongAdder sleptNanos = new LongAdder();
    private final AtomicLong distinct = new AtomicLong();
    private final AtomicInteger latencyIndex = new AtomicInteger();
    private final Set<Long> seen;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile long firstNanos;
    private volatile long targetNanos;
    private volatile BurstTimeline timeline;

    /**
     * @param target        records after which the run is complete ({@link #awaitTarget})
     * @param sleepMs       simulated I/O per record ({@code Thread.sleep}), 0 for a trivial route
     * @param trackDistinct remember (partition, offset) pairs so duplicates can be told from new records
     * @param latencySlots  &gt; 0: parse the send time encoded in the value and keep up to this many latency samples
     */
    Work(long target, long sleepMs, boolean trackDistinct, int latencySlots) {
        this(target, sleepMs, trackDistinct, latencySlots, RouteVariant.PLAIN);
    }

    /** @param route what the route does per record besides counting (and sleeping) */
    Work(long target, long sleepMs, boolean trackDistinct, int latencySlots, RouteVariant route) {
        this.route = route;
        this.spinIterations = route == RouteVariant.CPU ? RouteVariant.cpuIterations() : 0;
        this.target = target;
        this.sleepMs = sleepMs;
        this.trackDistinct = trackDistinct;
        this.latencies = latencySlots > 0 ? new long[latencySlots] : null;
        this.seen = trackDistinct ? ConcurrentHashMap.newKeySet() : null;
    }

    /** Whether the caller must pass the record's partition and offset. */
    boolean needsIds() {
        return trackDistinct;
    }

    /** Whether the caller must pass the record's value. */
    boolean needsValue() {
        return latencies != null;
    }

    /** Whether the caller must read the record's key and partition and pass them to {@link #onHeaders}. */
    boolean readsHeaders() {
        return route == RouteVariant.HEADERS;
    }

    /** The key and partition the route read (the Camel headers, or the ConsumerRecord's fields). */
    void onHeaders(Object key, Object partition) {
        sink += (key == null ? 0 : key.hashCode()) + (partition == null ? 0 : partition.hashCode());
    }

    /** Records each record's start, end and thread from now on (a burst of at most {@code records}). */
    BurstTimeline recordTimeline(int records) {
        timeline = new BurstTimeline(records);
        return timeline;
    }

    void onRecord(int partition, long offset, String value) {
        BurstTimeline t = timeline;
        int slot = t == null ? -1 : t.started();
        try {
            route(partition, offset, value);
        } finally {
            if (t != null) {
                t.ended(slot);
            }
        }
    }

    private void route(int partition, long offset, String value) {
        if (spinIterations > 0) {
            sink += RouteVariant.spin(offset + sink, spinIterations);
        }
        if (latencies != null && value != null) {
            long sent = Payloads.sendNanos(value);
            long now = System.nanoTime();
            int i = latencyIndex.getAndIncrement();
            if (i < latencies.length) {
                latencies[i] = now - sent;
            }
        }
        if (sleepMs > 0) {
            try {
                long asleep = System.nanoTime();
                Thread.sleep(sleepMs);
                sleptNanos.add(System.nanoTime() - asleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // interrupted (contender stopping): not counted as processed
            }
        }
        long c = count.incrementAndGet();
        if (c == 1) {
            firstNanos = System.nanoTime();
        }
        long progress = c;
        if (seen != null) {
            // with distinct tracking the run completes on the target-th *new* record, not on re-deliveries
            if (!seen.add(((long) partition << 40) | offset)) {
                return;
            }
            progress = distinct.incrementAndGet();
        }
        if (progress == target) {
            targetNanos = System.nanoTime();
            done.countDown();
        }
    }

    long count() {
        return count.get();
    }

    /** The route's mean time per record as measured (its sleep, woken late on a loaded machine), in ms; 0 without. */
    double meanRouteMs() {
        long n = count.get();
        return n == 0 ? 0 : sleptNanos.sum() / 1e6 / n;
    }

    long distinct() {
        return seen != null ? distinct.get() : -1;
    }

    long target() {
        return target;
    }

    long firstNanos() {
        return firstNanos;
    }

    /** When the {@code target}-th record was seen, 0 if not yet. */
    long targetNanos() {
        return targetNanos;
    }

    boolean awaitTarget(long timeoutMs) throws InterruptedException {
        return done.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Sorted latency samples in nanoseconds. */
    long[] latencies() {
        if (latencies == null) {
            return new long[0];
        }
        long[] copy = Arrays.copyOf(latencies, Math.min(latencyIndex.get(), latencies.length));
        Arrays.sort(copy);
        return copy;
    }

    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }
}
