package dev.kafkafetch.metrics;

/**
 * Events per second over the last minute, in one-second buckets. Single-threaded (the fetch thread); no allocation
 * after construction.
 */
public final class RateMeter {

    private static final int BUCKETS = 60;

    private final long[] counts = new long[BUCKETS];
    private long currentSecond = -1;
    private long firstSecond = -1;

    public void mark(long nowMs, long n) {
        roll(nowMs / 1000);
        counts[(int) (currentSecond % BUCKETS)] += n;
    }

    /** Average rate over the last minute, or over the time since the first event when that is shorter. */
    public double perSecond(long nowMs) {
        roll(nowMs / 1000);
        if (firstSecond < 0) {
            return 0.0;
        }
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        long seconds = Math.min(BUCKETS, currentSecond - firstSecond + 1);
        return (double) total / seconds;
    }

    private void roll(long second) {
        if (firstSecond < 0) {
            firstSecond = second;
            currentSecond = second;
            return;
        }
        if (second <= currentSecond) {
            return;
        }
        long gap = Math.min(BUCKETS, second - currentSecond);
        for (long s = 1; s <= gap; s++) {
            counts[(int) ((currentSecond + s) % BUCKETS)] = 0;
        }
        currentSecond = second;
    }
}
